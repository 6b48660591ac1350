package configs

// GPSeed is the seed of the learner (its random stream and EVO's
// operations): gp.seed when set, else the top-level seed.
func (c Config) GPSeed() uint64 {
	if c.GP.Seed != 0 {
		return c.GP.Seed
	}
	return c.Seed
}

// DataSeed is the seed of the generated datasets (train, validation, test,
// the pressure study's instances): data.seed when set, else the top-level
// seed. With data.seed fixed, a sweep over seed=1,2 varies the learner on
// one test set.
func (c Config) DataSeed() uint64 {
	if c.Data.Seed != 0 {
		return c.Data.Seed
	}
	return c.Seed
}
