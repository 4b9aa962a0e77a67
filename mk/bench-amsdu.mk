# A-MSDU study on the simulated medium (real-path mode, VHT80): goodput with
# and without aggregation and the latency of a sparse flow, three seeds; then
# the kernel model's A-MPDU download at the same rate (study/closedrounds):
# kernel_ampdu_ratio is airq's best A-MSDU goodput over the kernel AP's.
.PHONY: bench-amsdu
bench-amsdu:
	{ $(GO) test ./sim -run '^TestAMSDUStudy$$' -count=1 -v -args -amsdu.long && \
	  $(GO) test ./study/closedrounds/kernelmodel -run '^TestAMPDUCeiling$$' -count=1 -v -args -ampdu.long; } | \
	awk '/exchange|seed|RESULT/ { print } \
	  { for (i = 1; i <= NF; i++) { split($$i, kv, "="); if (kv[1] == "amsdu_mbit") a = kv[2]; if (kv[1] == "kernel_ampdu_mbit") k = kv[2] } } \
	  END { if (a + 0 == 0 || k + 0 == 0) { print "bench-amsdu: no goodput to compare"; exit 1 } \
	    printf "RESULT kernel_ampdu_ratio=%.3f (airq A-MSDU %.1f Mbit/s over a kernel AP'"'"'s A-MPDU %.1f, one airtime model)\n", a / k, a, k }'
