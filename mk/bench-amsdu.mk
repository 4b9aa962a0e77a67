# A-MSDU study on the simulated medium (real-path mode, VHT80): goodput with
# and without aggregation and the latency of a sparse flow, three seeds.
.PHONY: bench-amsdu
bench-amsdu:
	$(GO) test ./sim -run '^TestAMSDUStudy$$' -count=1 -v -args -amsdu.long | grep -E 'exchange|seed|RESULT'
