// Command airqctl inspects and tunes a running airqd over its control
// socket. It prints stations and surveys in iw 5.19's layout (`iw dev X
// station dump`, `survey dump`) and scan results like `scan dump`, rate
// tables and the AQL state like mac80211's debugfs files, a refreshing
// per-station view (top), and anything as JSON with -json.
//
//	airqctl [-socket PATH] [-json] [-i IFNAME] COMMAND
//
// Commands: help; status; station dump; station get MAC; station get MAC
// rates (rc_stats); station set MAC airtime_weight N; station del MAC;
// dev (the radio's BSSes, like iw dev); dev NAME station ... (one BSS's
// stations, like iw dev NAME station dump); aql;
// aql set AC LOW HIGH [force]; aql threshold N; scheduler; scan; scan dump
// and survey dump (like iw's); acs; snapshot; events (station connect and
// disconnect lines like hostapd_cli's, until interrupted; status 1 when
// airqd ends the stream); top [-b] [-n N] [-d INTERVAL]. Without -socket
// it dials $XDG_RUNTIME_DIR/airq/airqd.sock, then /run/airq/airqd.sock,
// where airqd puts its socket by default. Bad arguments exit with status
// 2, a refused or failed request with status 1.
package main
