package snake

import "testing"

func TestCase(t *testing.T) {
	for in, want := range map[string]string{
		"Fc1": "fc1", "TokEmb": "tok_emb", "QKV": "qkv", "HTTPServer": "http_server", "LnF": "ln_f",
		"MobileNetV2": "mobile_net_v2", "Layer2A": "layer2a", "Conv2DNet": "conv2d_net", "ResNet18": "res_net18", "X": "x", "": "",
	} {
		if got := Case(in); got != want {
			t.Errorf("Case(%q) = %q, want %q", in, got, want)
		}
	}
}
