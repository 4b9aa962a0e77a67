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
# makes the network WPA2-Personal (configs/sim-wpa2.conf).
SIM  ?=
ARGS ?=
WPA  ?=
run: build
	$(if $(WPA),install -m 600 configs/sim-wpa2.conf bin/sim-wpa2.conf)
	./bin/airqd -radio sim $(if $(WPA),-config bin/sim-wpa2.conf) $(if $(SIM),-sim-scenario $(SIM)) $(ARGS)

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

race:
	$(GO) test -race -count=1 ./...

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
