package external

import (
	"bytes"
	"testing"
)

// FuzzParseOffer: no input panics, and an accepted offer reads back as
// itself from its canonical form.
func FuzzParseOffer(f *testing.F) {
	f.Add([]byte(`{"type":"hello","protocol":1,"game":"g","mode":"two-seat","roles":["mover"],"options":[{"name":"o","default":"1","choices":["1","2"]}],"players":[{"name":"p","role":"mover","params":[{"name":"x","type":"grid","rows":2,"cols":2,"min":0,"max":1,"symmetry":"ring","default":[[0,1],[1,0]]},{"name":"y","type":"int","min":1,"max":9,"log":true,"default":3}]}]}`))
	f.Add([]byte(`{"type":"hello","protocol":1,"game":"g","mode":"solo","measure":"turns","opponent":"q","roles":["a","b"],"options":[],"players":[{"name":"p","role":"a","params":[]},{"name":"q","role":"b","params":[{"name":"c","type":"choice","choices":["u"],"default":"u"}]}]}`))
	f.Add([]byte(`{"type":"error","error":"no"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		d, err := parseOffer(line)
		if err != nil {
			return
		}
		canon, err := d.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		d2, err := parseOffer(canon)
		if err != nil {
			t.Fatalf("canonical form %s refused: %v", canon, err)
		}
		canon2, _ := d2.MarshalJSON()
		if !bytes.Equal(canon, canon2) {
			t.Fatalf("canonical form changes on reading:\n%s\n%s", canon, canon2)
		}
	})
}

// FuzzParseReply: no reply line panics; an accepted result is legal.
func FuzzParseReply(f *testing.F) {
	f.Add([]byte(`{"type":"result","id":3,"outcome":"win"}`), false)
	f.Add([]byte(`{"type":"result","id":3,"cost":1.5}`), true)
	f.Add([]byte(`{"type":"error","id":3,"error":"x"}`), false)
	f.Fuzz(func(t *testing.T, line []byte, solo bool) {
		_, r, _, err := parseReply(line, solo)
		if err == nil && solo && !finite(r.cost) {
			t.Fatalf("cost %v accepted", r.cost)
		}
	})
}
