package cli

import (
	"encoding/json"
	"io"
	"reflect"
)

// writeJSON writes v to w as one indented JSON document, the --json output
// of every command. A list is never null: an empty list is [], and an
// absent map {}, so that a reader can iterate whatever it gets.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(emptyNotNull(v))
}

// emptyNotNull returns a copy of v in which every nil slice and nil map
// that JSON would write as null is an empty one.
func emptyNotNull(v any) any {
	if v == nil {
		return v
	}
	rv := reflect.ValueOf(v)
	cp := reflect.New(rv.Type()).Elem()
	cp.Set(rv)
	fill(cp)
	return cp.Interface()
}

// fill replaces, in place, the nil slices and maps under v (which must be
// settable) by empty ones. Pointers are followed into copies, so the
// caller's values are never changed.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // []byte is a string to JSON; json.RawMessage is already JSON
		}
		if v.IsNil() {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		cp := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(cp, v)
		for i := range cp.Len() {
			fill(cp.Index(i))
		}
		v.Set(cp)
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
			return
		}
		cp := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			fill(e)
			cp.SetMapIndex(it.Key(), e)
		}
		v.Set(cp)
	case reflect.Pointer:
		if v.IsNil() || v.Type().Implements(marshalerType) {
			return
		}
		e := reflect.New(v.Type().Elem())
		e.Elem().Set(v.Elem())
		fill(e.Elem())
		v.Set(e)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := reflect.New(v.Elem().Type()).Elem()
		e.Set(v.Elem())
		fill(e)
		v.Set(e)
	case reflect.Struct:
		if reflect.PointerTo(v.Type()).Implements(marshalerType) || v.Type().Implements(marshalerType) {
			return // it writes itself
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	}
}

var marshalerType = reflect.TypeFor[json.Marshaler]()
