package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// omegaBody is the table of an ω table text: from its column header on.
func omegaBody(t *testing.T, text string) string {
	t.Helper()
	i := strings.Index(text, "ω     member")
	if i < 0 {
		t.Fatalf("no ω table in:\n%s", text)
	}
	body := text[i:]
	if j := strings.Index(body, "\n\n"); j >= 0 {
		body = body[:j+1]
	}
	var lines []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "ω") || strings.HasPrefix(l, "0.") || strings.HasPrefix(l, "1.") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// A front run prints its ω table on the test split; evaluating the front
// on that same split with every baseline gives the same table (members
// and baselines picked on the run's validation data, scored on the
// eval's instances), printed and written as omega_LABEL.txt.
func TestFrontOmegaTableLearnAndEvalAgree(t *testing.T) {
	dir, out := frontRun(t)
	if !strings.Contains(out, "ω table on 3 instances generated from seed") {
		t.Fatalf("the learn summary has no ω table:\n%s", out)
	}
	learnTable, err := os.ReadFile(filepath.Join(dir, "omega.txt"))
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(t.TempDir(), "test")
	if _, _, err := runApp(t, "data", "gen", "--config", "smoke", "--split", "test", "--out", data); err != nil {
		t.Fatal(err)
	}
	ev := filepath.Join(t.TempDir(), "eval")
	evalOut, _, err := runApp(t, "eval", "--dataset", data, "--quiet", "--format", "svg", "--out", ev,
		"--objective", "single", "--schedulers", "spark,liquid,tiresias,lyra,front="+dir)
	if err != nil {
		t.Fatal(err)
	}
	evalTable, err := os.ReadFile(filepath.Join(ev, "omega_front.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(evalOut, string(evalTable)) {
		t.Errorf("eval did not print omega_front.txt:\n%s", evalOut)
	}
	if !strings.Contains(string(evalTable), "baselines: srsf, spark, liquid, tiresias, lyra") {
		t.Errorf("the eval's table does not say which baselines it picked among:\n%s", evalTable)
	}
	if a, b := omegaBody(t, string(learnTable)), omegaBody(t, string(evalTable)); a != b || strings.Count(a, "\n") != 5 {
		t.Errorf("learn's ω table:\n%s\neval's on the same split:\n%s", a, b)
	}
}
