// Command airqctl inspects and tunes a running airqd over its control
// socket. It prints stations, scan results and surveys like `iw dev X
// station dump`, `scan dump` and `survey dump`, rate tables and the AQL
// state like mac80211's debugfs files, and anything as JSON with -json.
//
//	airqctl [-socket PATH] [-json] [-i IFNAME] COMMAND
//
// Commands: status; station dump; station get MAC; station get MAC rates
// (rc_stats); station set MAC airtime_weight N; station del MAC; aql; aql
// set AC LOW HIGH; aql threshold N; scheduler; scan; scan dump and survey
// dump (like iw's); events (station connect and disconnect lines like
// hostapd_cli's, until interrupted; status 1 when airqd ends the stream).
// Bad arguments exit with status 2, a refused or failed request with
// status 1.
package main
