package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/evogp/evogp/configs"
)

// --config <TAB> completes the embedded config names, for every command
// that takes --config.
func TestConfigCompletion(t *testing.T) {
	for _, cmd := range [][]string{{"learn"}, {"data", "gen"}, {"pressure"}} {
		out, _, err := runApp(t, append(cmd, "--config", "--generate-bash-completion")...)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSpace(out), "\n")
		if !slices.Equal(got, configs.Names()) || !slices.Contains(got, "hetero") || !slices.Contains(got, "quick") {
			t.Errorf("evogp %v --config <TAB>: %q, want %q", cmd, got, configs.Names())
		}
	}
}

// The man page's section is the one its help names: evogp(1).
func TestManSectionMatchesHelp(t *testing.T) {
	man, _, err := runApp(t, "man")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(man, "\n.TH evogp 1\n") {
		t.Errorf("man page header: %q", man[:min(len(man), 40)])
	}
	help, _, err := runApp(t, "man", "--help")
	if err != nil || !strings.Contains(help, "evogp(1)") || !strings.Contains(help, "evogp.1") {
		t.Errorf("man --help: %v\n%s", err, help)
	}
}
