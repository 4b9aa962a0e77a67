# Admission floods on the simulated medium: 3,000 random MACs authenticate
# and associate as fast as the medium lets them (half acknowledging like
# real radios), five floods of 10 s from new addresses, while a station
# downloads and a new station joins during each flood; then a full table.
# Then a radio of two BSSes with the flood aimed at one: the other's
# station's download (TestFloodOtherBSS). Exits non-zero naming any target
# missed.
.PHONY: bench-flood
bench-flood:
	@out=$$(mktemp); $(GO) test ./sim -run '^(TestFloodStudy|TestFloodOtherBSS)$$' -count=1 -v -args -flood.long >$$out 2>&1; rc=$$?; \
	grep -E 'flood_study_test.go|flood_bss_test.go|RESULT|target missed|^(ok|FAIL|panic)' $$out; rm -f $$out; exit $$rc
