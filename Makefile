# airq: `make run` starts the daemon on the simulated radio, `make test` runs the gate.
GO          ?= go
GOBIN       ?= $(shell $(GO) env GOPATH)/bin
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(GOBIN)/staticcheck
export GOFLAGS := -mod=mod

.PHONY: all build run test check vet staticcheck race norace bench cross tools e2e clean

all: build

build:
	$(GO) build -o bin/ ./cmd/...

# make run SIM=three-snr: a scenario of sim/scenarios (or SIM=FILE); ARGS=
# adds airqd flags, e.g. make run SIM=three-snr ARGS="-ht -scan" (-ht brings
# A-MSDUs to the stations that take them; -amsdu 0 sends none); WPA=1
# makes the network WPA2-Personal (configs/sim-wpa2.conf), WPA3=1
# WPA3-Personal (configs/sim-wpa3.conf).
SIM  ?=
ARGS ?=
WPA  ?=
WPA3 ?=
run: build
	$(if $(WPA),install -m 600 configs/sim-wpa2.conf bin/sim-wpa2.conf)
	$(if $(WPA3),install -m 600 configs/sim-wpa3.conf bin/sim-wpa3.conf)
	./bin/airqd -radio sim $(if $(WPA),-config bin/sim-wpa2.conf) $(if $(WPA3),-config bin/sim-wpa3.conf) $(if $(SIM),-sim-scenario $(SIM)) $(ARGS)

# The gate. gofmt and the import rules of ARCHITECTURE.md run as Go tests
# (package airq at the root), so `go test` alone also enforces them.
test: check

check: vet staticcheck race norace e2e-harness bench cross

tools: $(STATICCHECK)

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

vet:
	$(GO) vet ./...
	$(GO) vet -tags hwsim ./nl80211 # the e2e VM's TestIntegrationHwsim

staticcheck: $(STATICCHECK)
	$(STATICCHECK) ./...
	$(STATICCHECK) -tags hwsim ./nl80211

# The race pass: two groups of packages side by side, each with its own
# -timeout, which go test applies to each package's test binary (its default,
# 10 minutes, is no budget: a loaded host met it). A package past its budget
# panics naming the test it was running. Each budget is about twice the
# slowest package's time under -race measured on 2 cores at load 7-17 (the
# package times and the load are printed together: mk/load.sh):
#   sim   8m  the simulator's scenarios in virtual time: 138 s at load 7
#             and 169 s at load 10 before TestScanCost (51 s) and
#             TestScanUnderLoad (12 s) ran a third of their load under -race
#             (make norace runs them in full, as the flood study); after, 73 s
#             at load 6-7 (10 s and 2 s) and 222 s at load 11-14
#   rest  4m  every other package: cmd/airqd (its end-to-end tests build
#             airqd) 56 s and the root package (gofmt and the import rules
#             over the whole tree) 30 s at load 7-17, the rest under 25 s
RACE_TIMEOUT_SIM  := 8m
RACE_TIMEOUT_REST := 4m
race:
	@sh mk/load.sh before
	@$(GO) test -race -count=1 -timeout=$(RACE_TIMEOUT_SIM) ./sim & sim=$$!; \
	$(GO) test -race -count=1 -timeout=$(RACE_TIMEOUT_REST) $$($(GO) list ./... | grep -v '/sim$$'); rest=$$?; \
	wait $$sim; sim=$$?; \
	if [ $$rest != 0 ] || [ $$sim != 0 ]; then sh mk/load.sh failed; exit 1; fi
	@sh mk/load.sh after

# The non-race pass: the allocation tests (they skip under -race) and the
# tests -race shrinks, in full; fails on any skip (internal/tools/norace).
norace:
	$(GO) run ./internal/tools/norace -go $(GO) ./...

bench:
	$(GO) test -run='^$$' -bench=. -benchtime=1x ./...

cross:
	GOOS=darwin GOARCH=arm64 $(GO) build ./...

clean:
	rm -rf bin

-include test/e2e/e2e.mk
-include mk/*.mk
