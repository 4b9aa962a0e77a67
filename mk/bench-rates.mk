# Rate selection against an oracle on model channels (constant, drifting,
# stepping SNR), five seeds.
.PHONY: bench-rates
bench-rates:
	$(GO) test ./rate -run '^TestRatesStudy$$' -count=1 -v -args -rates.long | grep RESULT
