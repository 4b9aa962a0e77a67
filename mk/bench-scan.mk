# Background scanning on the simulated medium, US channel plan, 100 TU
# beacons, 5 simulated minutes per measurement.
# - The study (TestScanStudy): a station pinged from the wired side every
#   200 ms; no scan, mac80211's one-trip AP scan, airq continuous and airq
#   periodic; trip lengths, missed beacons, sweep time, discovery.
# - The cost (TestScanCost): per mode (none, continuous, periodic), with
#   retunes of 2 ms plus up to 1 ms of jitter, a bulk download's goodput and
#   pings each way (their round trips and losses); one RESULT line per mode.
.PHONY: bench-scan
bench-scan:
	$(GO) test ./sim -run '^(TestScanStudy|TestScanCost)$$' -count=1 -v -args -scan.long | grep -E 'scan(_cost)?_test.go|RESULT'
