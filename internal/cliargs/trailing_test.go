package cliargs

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

var reportFlags = map[string]bool{"format": false, "f": false, "quiet": true}

func TestApplyTrailing(t *testing.T) {
	cases := []struct {
		args    []string
		pos     []string
		set     string
		wantErr string
	}{
		{args: []string{"a", "--format", "svg", "b"}, pos: []string{"a", "b"}, set: "format=svg;"},
		{args: []string{"a", "--format=png,svg", "-quiet"}, pos: []string{"a"}, set: "format=png,svg;quiet=true;"},
		{args: []string{"-", "--quiet=false", "--", "--format", "x"}, pos: []string{"-", "--format", "x"}, set: "quiet=false;"},
		{args: []string{"a", "-f", "pdf"}, pos: []string{"a"}, set: "f=pdf;"},
		{args: []string{"a", "--nope"}, wantErr: "report: unknown flag --nope (see evogp report --help)"},
		{args: []string{"a", "--format"}, wantErr: "report: flag --format needs a value"},
		{args: []string{"--format", "bad", "--nope"}, wantErr: "report: flag --format: bad value"},
	}
	for _, tc := range cases {
		var got strings.Builder
		set := func(name, value string) error {
			if value == "bad" {
				return errors.New("bad value")
			}
			got.WriteString(name + "=" + value + ";")
			return nil
		}
		pos, err := ApplyTrailing("report", tc.args, reportFlags, IsDashWord, set)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("%q: error %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if !reflect.DeepEqual(pos, tc.pos) || got.String() != tc.set {
			t.Errorf("%q: positional %q, set %q; want %q, %q", tc.args, pos, got.String(), tc.pos, tc.set)
		}
	}
}

func TestWordKinds(t *testing.T) {
	for a, want := range map[string][2]bool{ // IsDashWord, LooksLikeFlag
		"-": {false, false}, "--": {true, false}, "-2": {true, false}, "-g*d": {true, true},
		"--format": {true, true}, "-F": {true, true}, "g*d": {false, false}, "---x": {true, false},
	} {
		if got := [2]bool{IsDashWord(a), LooksLikeFlag(a)}; got != want {
			t.Errorf("%q: IsDashWord, LooksLikeFlag = %v, want %v", a, got, want)
		}
	}
}
