package main

import (
	"strings"
	"testing"

	"github.com/evogp/evogp/policies"
	"github.com/evogp/evogp/simcore"
)

// Every name the registry holds is in simulate's and eval's help, and
// completion offers every registered spec after --scheduler and every
// objective kind after --objective.
func TestHelpAndCompletionListTheRegistry(t *testing.T) {
	cat := policies.List()
	for _, cmd := range []string{"simulate", "eval"} {
		help, _, err := runApp(t, cmd, "--help")
		if err != nil {
			t.Fatal(err)
		}
		words := strings.FieldsFunc(help, func(r rune) bool { return strings.ContainsRune(" ,;()\n", r) })
		has := map[string]bool{}
		for _, w := range words {
			has[w] = true
		}
		for _, name := range append(append(append(cat.Names(), cat.Allocators...), cat.Rankings...), cat.Placers...) {
			if !has[name] {
				t.Errorf("evogp %s --help lacks %s", cmd, name)
			}
		}
		for _, k := range simcore.ObjectiveKindNames() {
			if !has[k] {
				t.Errorf("evogp %s --help lacks objective kind %s", cmd, k)
			}
		}
	}
	complete := func(args ...string) map[string]bool {
		out, _, err := runApp(t, append(args, "--generate-bash-completion")...)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, l := range strings.Split(out, "\n") {
			got[l] = true
		}
		return got
	}
	for _, flag := range []string{"--scheduler", "--schedulers"} {
		cmd := map[string]string{"--scheduler": "simulate", "--schedulers": "eval"}[flag]
		got := complete(cmd, "--dataset", "d", flag)
		for _, s := range cat.Specs() {
			if !got[s] {
				t.Errorf("evogp %s %s <TAB> lacks %s", cmd, flag, s)
			}
		}
		if !got["mct-all+srsf+bestfit"] || !got["hydra"] {
			t.Errorf("evogp %s %s <TAB>: %v", cmd, flag, got)
		}
	}
	got := complete("simulate", "--objective")
	for _, k := range simcore.ObjectiveKindNames() {
		if !got[k] {
			t.Errorf("evogp simulate --objective <TAB> lacks %s", k)
		}
	}
	// Elsewhere: subcommands of a group, flags after a dash.
	if got := complete("data"); !got["gen"] || !got["import"] {
		t.Errorf("evogp data <TAB>: %v", got)
	}
	if got := complete("simulate", "--sch"); !got["--scheduler"] || !got["--dataset"] {
		t.Errorf("evogp simulate --sch<TAB>: %v", got)
	}
}
