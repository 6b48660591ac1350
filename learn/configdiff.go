package learn

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/evogp/evogp/configs"
)

// configDiff returns the first dotted config key (in declaration order)
// whose value differs between a and b, ignoring the keys in skip, with the
// two values as text; ok is false when they agree on every other key. A
// list of sections (such as generator.types) is compared as one value.
// Both configs are compared as config.yaml stores them (a Marshal/Parse
// round trip), so that, say, an empty and a missing list agree exactly when
// ConfigHash says they do.
func configDiff(a, b configs.Config, skip ...string) (key, va, vb string, ok bool) {
	a, b = roundTrip(a), roundTrip(b)
	var walk func(x, y reflect.Value, prefix string) bool
	walk = func(x, y reflect.Value, prefix string) bool {
		t := x.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			k := prefix + name
			if slices.Contains(skip, k) {
				continue
			}
			fx, fy := x.Field(i), y.Field(i)
			if f.Type.Kind() == reflect.Struct {
				if walk(fx, fy, k+".") {
					return true
				}
				continue
			}
			if !reflect.DeepEqual(fx.Interface(), fy.Interface()) {
				key, va, vb = k, fmt.Sprint(fx.Interface()), fmt.Sprint(fy.Interface())
				return true
			}
		}
		return false
	}
	ok = walk(reflect.ValueOf(a), reflect.ValueOf(b), "")
	return key, va, vb, ok
}

// roundTrip is c as written to and read back from config.yaml (c itself if
// either step fails; Validate has accepted c by then).
func roundTrip(c configs.Config) configs.Config {
	raw, err := c.Marshal()
	if err != nil {
		return c
	}
	back, err := configs.Parse(ConfigFile, raw)
	if err != nil {
		return c
	}
	return back
}
