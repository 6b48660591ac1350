package runfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Manifests written by main 34e6822 (evogp eval, eval of a front, eval
// with an EVO pair and a user-chosen best baseline, evogp pressure) still
// read: the old objective fields become a record holding everything they
// stored, and every other field survives a write and a read.
func TestReadManifestsOfMain34e6822(t *testing.T) {
	w111 := [3]float64{1, 1, 1}
	half := 0.5
	legacy := Objective{Kind: "multi", Weights: &w111, Omega: &half}
	for _, tc := range []struct {
		file     string
		pressure bool
		check    func(*Manifest) bool
	}{
		{"eval.json", false, func(m *Manifest) bool {
			e := m.Eval
			return e.Dataset == "D" && e.Instances == 3 && len(e.Schedulers) == 5 &&
				e.Schedulers[2] == (SchedulerRecord{Label: "smoke", Spec: "smoke=L-smoke/best.json", Name: "mct+formula+bestfit[g - g - q * d]", Source: "g - g - q * d", TimeUnit: "hours"}) &&
				e.Reference == "tiresias" && e.Trigger == "arrival" && e.Backfill == "none" && e.TimeUnit == "hours"
		}},
		{"eval-front.json", false, func(m *Manifest) bool {
			f := m.Eval.Fronts
			return len(f) == 1 && f[0].Label == "front" && f[0].Run == "L-front/best.json" && len(f[0].Objectives) == 2 &&
				len(f[0].Members) == 1 && f[0].Members[0].Size == 6 && *f[0].Members[0].OmegaLo == 0 && *f[0].Members[0].OmegaHi == 1
		}},
		{"eval-evo.json", false, func(m *Manifest) bool {
			e := m.Eval
			return len(e.EVOPairs) == 1 && e.EVOPairs[0] == (EVOPair{EVO: "evo-srsf", MCT: "mct+srsf+bestfit"}) &&
				e.Schedulers[2].EVO != nil && e.Schedulers[2].EVO.Generations == 2 && e.Schedulers[2].EVO.Init == "seeded" &&
				e.BestBaseline == "liquid" && e.BestBaselineBasis == "by the user (--best-baseline)"
		}},
		{"pressure.json", true, func(m *Manifest) bool {
			p := m.Pressure
			return p.Config == "load" && p.Seed == 1 && p.Clusters == 5 && p.Nodes == 40 && p.Jobs == 10 && p.Seeds == 1 &&
				reflect.DeepEqual(p.Intervals, []float64{600, 3600}) && len(p.Schedulers) == 3 && p.Schedulers[1].Source == "g*d"
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src := filepath.Join("testdata", "manifest", "main-34e6822", tc.file)
			dir := t.TempDir()
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ManifestFile), data, 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := ReadManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			if (m.Pressure != nil) != tc.pressure || (m.Eval != nil) == tc.pressure {
				t.Fatalf("eval %v, pressure %v", m.Eval != nil, m.Pressure != nil)
			}
			var rec Objective
			var isLegacy bool
			if tc.pressure {
				rec, isLegacy = m.Pressure.Objective, m.Pressure.Legacy
			} else {
				rec, isLegacy = m.Eval.Objective, m.Eval.Legacy
			}
			if !isLegacy || !rec.Equal(legacy) {
				t.Fatalf("objective %v (legacy %v), want %v (legacy)", rec, isLegacy, legacy)
			}
			if !tc.check(m) {
				t.Fatalf("fields lost: %+v %+v", m.Eval, m.Pressure)
			}
			// Written back in the new layout: the record, no old fields.
			out := t.TempDir()
			if tc.pressure {
				err = WritePressureManifest(out, m.Pressure)
			} else {
				err = WriteEvalManifest(out, m.Eval)
			}
			if err != nil {
				t.Fatal(err)
			}
			written, _ := os.ReadFile(filepath.Join(out, ManifestFile))
			for _, old := range []string{`"objective":`, `"weights":`, `"omega":`} {
				if strings.Contains(strings.ReplaceAll(string(written), `"objective_record"`, ""), "\n  "+old) {
					t.Errorf("new manifest has the old top-level field %s:\n%s", old, written)
				}
			}
			back, err := ReadManifest(out)
			if err != nil {
				t.Fatal(err)
			}
			if back.Eval != nil {
				back.Eval.Legacy = true
			} else {
				back.Pressure.Legacy = true
			}
			if !reflect.DeepEqual(back, m) {
				t.Fatalf("read back %+v %+v, want %+v %+v", back.Eval, back.Pressure, m.Eval, m.Pressure)
			}
		})
	}
}

// A manifest in the new layout stores the objective once, as the record,
// with only the parameters the kind reads.
func TestManifestStoresTheRecord(t *testing.T) {
	dir := t.TempDir()
	omega := 0.25
	m := &EvalManifest{Dataset: "D", Instances: 1, Objective: Objective{Kind: "single", Omega: &omega}}
	if err := WriteEvalManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, ManifestFile))
	if !strings.Contains(string(data), "\"objective_record\": {\n    \"kind\": \"single\",\n    \"omega\": 0.25\n  }") || strings.Contains(string(data), "weights") {
		t.Fatalf("manifest:\n%s", data)
	}
	back, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.Eval == nil || back.Eval.Legacy || !back.Eval.Objective.Equal(m.Objective) || back.Eval.Command != CommandEval {
		t.Fatalf("read back %+v", back.Eval)
	}
	bad := &PressureManifest{Objective: Objective{Kind: "multi"}}
	if err := WritePressureManifest(dir, bad); err == nil || !strings.Contains(err.Error(), "objective_record") {
		t.Fatalf("a record without parameters: error %v", err)
	}
}

func TestDecodeManifestErrors(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"command": "learn", "objective_record": {"kind": "multi", "weights": [1, 1, 1]}}`, `field "command" = "learn"`},
		{`{"command": "eval"}`, `field "objective_record": missing`},
		{`{"command": "eval", "objective": "multi", "weights": "1,x,1"}`, `field "weights"`},
		{`{"command": "pressure", "objective": "multi", "weights": [1, -1, 1]}`, `field "objective"`},
		{`{"command": "pressure", "objective": "multi", "weights": {"a": 1}}`, `field "weights"`},
		{`{"command": "eval", "objective_record": {"kind": "single", "omega": 2}}`, `field "objective_record"`},
		{`{"command": "eval", "objective_record": {"kind": "multi", "weights": [1, 1, 1]}, "instances": "3"}`, `instances`},
		{`{"command": "eval"`, `m.json: unexpected end`},
	} {
		_, err := DecodeManifest("m.json", []byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "m.json: ") {
			t.Errorf("%s: error %v, want one naming m.json and %q", tc.data, err, tc.want)
		}
	}
	if _, err := ReadManifest(t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no manifest: error %v, want fs.ErrNotExist", err)
	}
}

func FuzzDecodeManifest(f *testing.F) {
	for _, name := range []string{"eval.json", "eval-front.json", "eval-evo.json", "pressure.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "manifest", "main-34e6822", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeManifest("m.json", data)
		if err != nil {
			return
		}
		if (m.Eval == nil) == (m.Pressure == nil) {
			t.Fatalf("eval %v pressure %v", m.Eval, m.Pressure)
		}
		dir := t.TempDir()
		if m.Eval != nil {
			err = WriteEvalManifest(dir, m.Eval)
		} else {
			err = WritePressureManifest(dir, m.Pressure)
		}
		if err != nil {
			t.Fatalf("a manifest that read does not write: %v", err)
		}
		if _, err := ReadManifest(dir); err != nil {
			t.Fatalf("a written manifest does not read: %v", err)
		}
	})
}
