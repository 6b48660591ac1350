package configs

import "go.yaml.in/yaml/v3"

// holdsNothing reports whether data is a YAML stream without settings: no
// document, or a first document that is empty or null ("---", "~"). Such
// a config file is refused rather than taken as the defaults (issue 32
// item 14); "{}" is the explicit way to ask for every default.
func holdsNothing(data []byte) bool {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return false // a syntax error is reported by the strict decoder
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return true
	}
	n := doc.Content[0]
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}
