package configs

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The surrogate keys (gp.surrogate, gp.surrogate_pool, gp.surrogate_k,
// gp.surrogate_repeats): off by default and then not written out, so every
// config without them keeps its ConfigHash. With gp.surrogate: knn an
// unset pool or k takes its default, which the resolved config then
// states; gp.surrogate_repeats is written only as free (its default, last,
// is stored as "", so knn configs from before the key keep their hash).

// Surrogate defaults with gp.surrogate: knn.
const (
	DefaultSurrogatePool = 2
	DefaultSurrogateK    = 3
)

// SurrogateOn reports whether offspring are pre-screened by a surrogate.
func (g GP) SurrogateOn() bool { return g.Surrogate == "knn" }

// SurrogateRepeatsFree reports whether the screen keeps offspring that
// repeat a parent first (gp.surrogate_repeats: free).
func (g GP) SurrogateRepeatsFree() bool { return g.SurrogateRepeats == "free" }

// normaliseSurrogate drops an explicit gp.surrogate: none and
// gp.surrogate_repeats: last (the defaults) and fills the pool and k
// defaults of knn.
func (g *GP) normaliseSurrogate() {
	if g.Surrogate == "none" {
		g.Surrogate = ""
	}
	if g.SurrogateRepeats == "last" {
		g.SurrogateRepeats = ""
	}
	if g.Surrogate != "knn" {
		return
	}
	if g.SurrogatePool == 0 {
		g.SurrogatePool = DefaultSurrogatePool
	}
	if g.SurrogateK == 0 {
		g.SurrogateK = DefaultSurrogateK
	}
}

// dropSurrogateParams clears the pool, k and repeats rule of a config
// whose surrogate an override turned off (gp.surrogate=none on a knn
// config), unless the same overrides also set one of them, which
// validateSurrogate then refuses.
func (g *GP) dropSurrogateParams(assignments []string) {
	if g.Surrogate != "" && g.Surrogate != "none" {
		return
	}
	for _, a := range assignments {
		key, _, _ := strings.Cut(a, "=")
		if key == "gp.surrogate_pool" || key == "gp.surrogate_k" || key == "gp.surrogate_repeats" {
			return
		}
	}
	g.SurrogatePool, g.SurrogateK, g.SurrogateRepeats = 0, 0, ""
}

// checkSurrogateSet refuses an override that sets the pool or k below 1
// (0 would otherwise read as "unset" and take the default).
func (g GP) checkSurrogateSet(key string) error {
	switch key {
	case "gp.surrogate_pool":
		return surrogateParamError("gp.surrogate_pool", g.SurrogatePool)
	case "gp.surrogate_k":
		return surrogateParamError("gp.surrogate_k", g.SurrogateK)
	}
	return nil
}

func surrogateParamError(key string, v int) error {
	if v >= 1 {
		return nil
	}
	what := "breed that many times gp.population offspring"
	if key == "gp.surrogate_k" {
		what = "the number of neighbours the kNN model averages"
	}
	return fmt.Errorf("%s = %d: must be ≥ 1 (%s)", key, v, what)
}

// checkSurrogateGiven refuses a config file that writes the pool or k
// below 1, which the decoded Config cannot tell from an absent key.
func checkSurrogateGiven(data []byte) error {
	var raw struct {
		GP struct {
			Pool yaml.Node `yaml:"surrogate_pool"`
			K    yaml.Node `yaml:"surrogate_k"`
		} `yaml:"gp"`
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil // the strict decode has already accepted it; not reached
	}
	for _, f := range []struct {
		key  string
		node *yaml.Node
	}{{"gp.surrogate_pool", &raw.GP.Pool}, {"gp.surrogate_k", &raw.GP.K}} {
		if f.node.Kind == 0 {
			continue
		}
		v, err := strconv.Atoi(f.node.Value)
		if err != nil {
			continue // the strict decode reports a non-integer
		}
		if err := surrogateParamError(f.key, v); err != nil {
			return fmt.Errorf("line %d: %w", f.node.Line, err)
		}
	}
	return nil
}

// validateSurrogate checks the surrogate keys.
func (g GP) validateSurrogate() error {
	switch g.SurrogateRepeats {
	case "", "last", "free":
	default:
		return fmt.Errorf("gp.surrogate_repeats = %q: must be last (offspring repeating a parent are simulated only when too few new ones were bred) or free (they are kept first: they cost no simulation)", g.SurrogateRepeats)
	}
	switch g.Surrogate {
	case "", "none":
		for _, k := range []struct {
			set  bool
			name string
		}{{g.SurrogatePool != 0, "gp.surrogate_pool"}, {g.SurrogateK != 0, "gp.surrogate_k"}, {g.SurrogateRepeats == "free", "gp.surrogate_repeats"}} {
			if k.set {
				return fmt.Errorf("%s is set but gp.surrogate is off (use gp.surrogate: knn)", k.name)
			}
		}
		return nil
	case "knn":
	default:
		return fmt.Errorf("gp.surrogate = %q: must be none or knn", g.Surrogate)
	}
	if err := surrogateParamError("gp.surrogate_pool", g.SurrogatePool); err != nil {
		return err
	}
	return surrogateParamError("gp.surrogate_k", g.SurrogateK)
}
