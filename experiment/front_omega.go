package experiment

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/evogp/evogp/internal/pareto"
	"github.com/evogp/evogp/reports"
	"github.com/evogp/evogp/simcore"
)

// omegaFileName is the ω table of front LABEL in an eval's directory.
func omegaFileName(label string) string { return "omega_" + label + ".txt" }

// normalised is obj ÷ srsf as the learner's normalise (0 ÷ 0 is 1).
func normalised(obj, srsf float64) float64 {
	if srsf == 0 {
		return 1 + obj
	}
	return obj / srsf
}

// frontOmegaTables is the ω table of every front of the eval
// (LABEL=RUN): ω's member is picked on the run's validation objectives
// (best.json), ω's best baseline among SRSF and the eval's schedulers
// that the run scored on validation (best.json's baselines), on those
// validation objectives; both are then scored on this eval's instances
// (results), each objective ÷ SRSF's on the instance. SRSF is the run's
// normaliser (gp.allocator + srsf + gp.placer of its config.yaml, else
// mct+srsf+bestfit), simulated here. It returns one text per front, in
// front order.
func frontOmegaTables(ctx context.Context, fronts []reports.FrontSet, insts []simcore.Instance, results []reports.ResultRow, opts simcore.Options) ([]string, error) {
	var out []string
	for _, set := range fronts {
		text, err := frontOmegaTable(ctx, set, insts, results, opts)
		if err != nil {
			return nil, fmt.Errorf("ω table of front %s: %w", set.Label, err)
		}
		out = append(out, text)
	}
	return out, nil
}

func frontOmegaTable(ctx context.Context, set reports.FrontSet, insts []simcore.Instance, results []reports.ResultRow, opts simcore.Options) (string, error) {
	f, srsfSpec, err := frontOmegaRun(set.Run)
	if err != nil {
		return "", err
	}
	head := fmt.Sprintf("front %s (%s)\n", set.Label, set.Run)
	if slices.Contains(f.Objectives[:min(2, len(f.Objectives))], "size") {
		return head + "ω table: ω weighs size, which baselines do not have: no ω table\n", nil
	}
	srsfSched, err := simcore.ParseScheduler(srsfSpec, nil)
	if err != nil {
		return "", err
	}
	index := map[string]int{}
	srsf := make([][]float64, len(insts)) // raw objectives of SRSF per instance
	for i := range insts {
		index[insts[i].Name] = i
		res, err := simcore.Simulate(ctx, &insts[i], srsfSched, opts)
		if err != nil {
			return "", fmt.Errorf("simulate %s on instance %q: %w", srsfSpec, insts[i].Name, err)
		}
		row := reports.ResultRow{CQAvg: res.Metrics.CQAvg, CQMax: res.Metrics.CQMax, Util: res.Metrics.Util,
			AvgJCT: res.Metrics.AvgJCT, MaxQT: res.Metrics.MaxQT, TotalTardiness: res.Metrics.TotalTardiness}
		srsf[i] = make([]float64, len(f.Objectives))
		for k, name := range f.Objectives {
			srsf[i][k], _ = reports.FrontMetric(name, row)
		}
	}
	// vectors[scheduler][instance]: normalised objectives (size: sizeOf).
	vectors := map[string][][]float64{}
	for _, r := range results {
		i, ok := index[r.Instance]
		if !ok {
			continue
		}
		v := vectors[r.Scheduler]
		if v == nil {
			v = make([][]float64, len(insts))
			vectors[r.Scheduler] = v
		}
		if v[i] != nil {
			continue // another seed of the same instance: the first counts
		}
		v[i] = make([]float64, len(f.Objectives))
		for k, name := range f.Objectives {
			if x, ok := reports.FrontMetric(name, r); ok {
				v[i][k] = normalised(x, srsf[i][k])
			}
		}
	}
	ones := make([]float64, len(f.Objectives))
	srsfTest := make([][]float64, len(insts))
	for k, name := range f.Objectives {
		if name != "size" {
			ones[k] = 1
		}
	}
	for i := range insts {
		srsfTest[i] = ones
	}
	in := pareto.OmegaInput{Baselines: []string{"srsf"}, BaselineSelection: [][]float64{ones}, BaselineTest: [][][]float64{srsfTest}}
	var considered, skipped []string
	for _, b := range f.Baselines {
		v, ok := vectors[b.Name]
		if !ok || slices.ContainsFunc(v, func(x []float64) bool { return x == nil }) {
			skipped = append(skipped, b.Name)
			continue
		}
		considered = append(considered, b.Name)
		in.Baselines = append(in.Baselines, b.Name)
		in.BaselineSelection = append(in.BaselineSelection, b.Validation)
		in.BaselineTest = append(in.BaselineTest, v)
	}
	for k, m := range set.Members {
		v, ok := vectors[m.Label]
		if !ok || slices.ContainsFunc(v, func(x []float64) bool { return x == nil }) {
			return "", fmt.Errorf("member %s has no result on some instance", m.Label)
		}
		for i := range v {
			for o, name := range f.Objectives {
				if name == "size" {
					v[i][o] = float64(m.Size)
				}
			}
		}
		in.Members = append(in.Members, m.Label)
		in.MemberSelection = append(in.MemberSelection, f.Members[k].Validation)
		in.MemberTest = append(in.MemberTest, v)
	}
	rows, err := pareto.OmegaTable(in, pareto.OmegaGrid())
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	buf.WriteString(head)
	sel := "the run's validation set (best.json); baselines: srsf"
	if len(considered) > 0 {
		sel += ", " + strings.Join(considered, ", ")
	}
	if err := pareto.WriteOmegaTable(&buf, rows, f.Objectives, fmt.Sprintf("%d instances of this eval", len(insts)), sel); err != nil {
		return "", err
	}
	if len(skipped) > 0 {
		fmt.Fprintf(&buf, "baselines the run scored on validation but this eval did not run: %s\n", strings.Join(skipped, ", "))
	}
	var other []string
	for s := range vectors {
		if s != "srsf" && !slices.Contains(considered, s) && !slices.ContainsFunc(set.Members, func(m reports.FrontSetMember) bool { return m.Label == s }) {
			other = append(other, s)
		}
	}
	if len(other) > 0 {
		slices.Sort(other)
		fmt.Fprintf(&buf, "not candidates for best baseline (no validation score in the run): %s\n", strings.Join(other, ", "))
	}
	return buf.String(), nil
}
