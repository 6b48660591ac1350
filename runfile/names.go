package runfile

// Files of a learn run directory (and of a sweep point, which is one).
const (
	// BestFile holds the chosen formula in every form and its scores
	// (Best); its presence marks a finished run.
	BestFile = "best.json"
	// ConfigFile is the run's config as resolved; its gp.time_unit is the
	// unit of the formula's time terminals and gp.subset the α that
	// turns a generation's fitness into a per-instance mean.
	ConfigFile = "config.yaml"
	// GenerationsFile is the per-generation table (runlog.GenerationRow,
	// with a hypervolume column under gp.selection: nsga2).
	GenerationsFile = "generations.parquet"
	// FrontFile is the front of a multi-objective run, one row per member.
	FrontFile = "front.parquet"
	// HallFile is the hall of fame, ranked by validation score.
	HallFile = "hall_of_fame.csv"
	// FormulaGoFile is the formula as Go source; not .go, so a run
	// directory is never a Go package.
	FormulaGoFile = "formula.go.txt"
	// FormulaTeXFile is the formula as displayed LaTeX.
	FormulaTeXFile = "formula.tex"
	// OmegaFile is the ω table of a front run.
	OmegaFile = "omega.txt"
	// PlotName is the convergence figure's name (.png and .svg).
	PlotName = "convergence"
	// CheckpointDir holds what resuming a run needs.
	CheckpointDir = "checkpoint"
	// ProvenanceFile records what produced an output directory (every
	// command's output, not only learn's).
	ProvenanceFile = "provenance.json"
	// ManifestFile marks an output directory written by evogp eval or
	// pressure and says what produced it: an EvalManifest or a
	// PressureManifest, told apart by "command".
	ManifestFile = "evogp.json"
)
