# The closed-round study (docs/closed-rounds.md): seed 000 in the kernel model.
.PHONY: bench-seed
bench-seed:
	$(GO) run ./study/closedrounds/bench-seed
