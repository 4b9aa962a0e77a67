# Background scanning study on the simulated medium: a station pinged from
# the wired side every 200 ms for 5 simulated minutes while the AP scans the
# US channel plan; no scan, mac80211's one-trip AP scan, airq continuous and
# airq periodic.
.PHONY: bench-scan
bench-scan:
	$(GO) test ./sim -run '^TestScanStudy$$' -count=1 -v -args -scan.long | grep -E 'scan_test.go|RESULT'
