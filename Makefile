# evogp — build, test, bench, lint.
GO ?= go
STATICCHECK_VERSION ?= v0.8.2

.PHONY: build test test-short test-slurm bench lint fuzz reproduce clean

build:
	$(GO) build -o bin/evogp ./cmd/evogp

test:
	$(GO) test -count=1 -timeout 30m ./...

test-short:
	$(GO) test -short -count=1 ./...

# The Slurm launcher and `evogp deploy slurm` on a real single-node Slurm
# (installs slurm and munge from the distribution when missing; needs
# root). A few minutes.
test-slurm:
	scripts/slurm-test.sh
	scripts/slurm-deploy-test.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 ./... | tee bench.txt

lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./expr
	$(GO) test -run '^$$' -fuzz FuzzReadCSV -fuzztime 30s ./datasets
	$(GO) test -run '^$$' -fuzz FuzzImport -fuzztime 30s ./datasets/philly
	$(GO) test -run '^$$' -fuzz FuzzOverride -fuzztime 30s ./configs
	$(GO) test -run '^$$' -fuzz FuzzPointDirName -fuzztime 30s ./experiment
	$(GO) test -run '^$$' -fuzz FuzzParseSlurmStates -fuzztime 30s ./experiment
	$(GO) test -run '^$$' -fuzz FuzzParseSqueue -fuzztime 30s ./deploy/slurm
	$(GO) test -run '^$$' -fuzz FuzzParseSinfo -fuzztime 30s ./deploy/slurm

# The paper's setting end to end: learn, then evaluate against the baselines.
reproduce: build
	./bin/evogp learn --config paper --out runs/paper
	./bin/evogp data gen --config paper --split test --instances 30 --seed 2 --out runs/paper-test
	./bin/evogp eval --dataset runs/paper-test --schedulers spark,liquid,tiresias,lyra,gp=runs/paper/best.json --out runs/paper-eval

clean:
	rm -rf bin runs bench.txt
