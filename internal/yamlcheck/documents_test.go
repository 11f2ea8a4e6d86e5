package yamlcheck

import "testing"

// TestParseOneDocument: a file is one YAML document; a second one after
// "---" is an error at its line, not settings silently dropped. A "---"
// that opens the document or ends the file is fine.
func TestParseOneDocument(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string // want: "" parses
	}{
		{"one document", "a: 1\nb: 2\n", ""},
		{"opened with ---", "---\na: 1\n", ""},
		{"closed with ---", "a: 1\n---\n", ""},
		{"closed with ... ", "a: 1\n...\n", ""},
		{"a second document", "a: 1\n---\nb: 2\n", "f.yaml:3: a second YAML document (after ---): one file holds one document"},
		{"a second document, a list", "a: 1\n---\n\n- x\n", "f.yaml:4: a second YAML document (after ---): one file holds one document"},
		{"a broken second document", "a: 1\n---\nb: [\n", "f.yaml:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := New("f.yaml")
			root := c.Parse([]byte(tc.text))
			err := c.Err()
			switch {
			case tc.want == "" && (err != nil || root == nil):
				t.Fatalf("got %v (root %v), want the first document", err, root)
			case tc.want != "" && (err == nil || len(err.Error()) < len(tc.want) || err.Error()[:len(tc.want)] != tc.want):
				t.Fatalf("got %v, want an error starting %q", err, tc.want)
			}
		})
	}
}
