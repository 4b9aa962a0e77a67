// Package ctl is airq's control protocol: requests, replies and their text
// encoding, with no transport. The daemon serves it on a unix socket
// (package shell), the core answers it (ap.AP.Control), and airqctl
// speaks it; tests drive it over net.Pipe or a buffer.
//
// The shape follows wireguard-go's UAPI: a request is one line, a reply is
// key=value lines closed by an errno line and an empty line.
//
// # Requests
//
//	request  = "status"
//	         | station
//	         | "dev"                                       ; the radio's BSSes, as iw dev
//	         | "dev" IFNAME station                        ; IFNAME's stations alone, as iw dev IFNAME
//	         | "aql"
//	         | "aql set" AC LOW HIGH [ "force" ]           ; µs, LOW <= HIGH; a zero
//	                                                       ; limit needs force
//	         | "aql threshold" US                          ; µs, 0..4294967295
//	         | "scheduler"
//	         | "airtime"                                   ; the airtime policy
//	         | "airtime set" KEY [ MAC ] N                 ; one airtime key, live: airtime_mode,
//	                                                       ; airtime_update_interval, airtime_bss_weight,
//	                                                       ; airtime_bss_limit, airtime_bss_cap, or
//	                                                       ; airtime_sta_weight MAC (0 removes it)
//	         | "scan"                                      ; background scan status
//	         | "scan dump"                                 ; the BSS table
//	         | "survey dump"                               ; per-channel survey
//	         | "acs"                                       ; the start-up channel selection
//	         | "snapshot"                                  ; all of status, dev, station dump,
//	                                                       ; aql, scheduler, scan at once
//	         | "events"                                    ; a stream, see below
//	station  = "station dump"
//	         | "station get" MAC
//	         | "station get" MAC "rates"                   ; the rate selector's table
//	         | "station set" MAC "airtime_weight" WEIGHT   ; 1..65535
//	         | "station del" MAC                           ; deauthenticate
//	MAC      = six hex octets separated by ':' or '-'
//	AC       = VO | VI | BE | BK (any case) | 0..3 (debugfs numbering)
//	IFNAME   = a BSS's name (its bss= section's), 1 to 15 bytes
//
// Words are separated by blanks; a request ends at '\n' and is at most
// MaxRequestLen bytes. Request.String gives the canonical form.
//
// # Replies
//
//	reply    = [ "error=" QUOTED "\n" ] *section "errno=" N "\n" "\n"
//	section  = "section=" NAME "\n" *( KEY "=" VALUE "\n" )
//	NAME     = status | station | aql | scheduler | ac | scan | bss | survey
//	         | rates | rate | acs | airtime | airtime_bss | airtime_sta | dev
//
// A section is one record: Status, one Station, AQL, Scheduler, and after
// a scheduler one ac section per access category in VO, VI, BE, BK order;
// ScanStatus, one BSS, one Survey; a RateTable and after it one rate
// section per rate, fastest first; Airtime and after it one airtime_bss
// section per BSS and one airtime_sta section per associated station; one
// Dev per BSS of the radio, first BSS first. A request for an IFNAME the
// radio has no BSS of fails with ENODEV; a station of another BSS than
// IFNAME's is not found (ENOENT), as iw finds a station only on its own
// interface. The scan requests fail with
// EOPNOTSUPP when the daemon runs without background scanning; a snapshot
// then has no scan section. A snapshot is what a monitoring system reads:
// every section of the core's state, taken in one pass of the core's loop.
// A station dump is not: the daemon streams it a page of stations at a
// time (WriteStationDump), so that a full table's dump never sits in its
// memory whole; each station present throughout is listed once, in AID
// order, and one that comes or goes meanwhile may be missing.
// KEY is the field's JSON name, so the text and the -json output name the
// same things; the status section holds every counter of package counter
// under its key. VALUE is a decimal number (a float in Go's shortest form,
// always finite), true or false, a Go-quoted string, a MAC or AC name, a
// list of rates in iw's form ("1.0* 2.0 54.0 HT*": Mbit/s, '*' marking a
// basic rate), or, for per-AC arrays, four values separated by one space in
// VO VI BE BK order. errno is 0 on success, otherwise one of the
// Errno constants, and error carries the message. Unknown sections and keys
// are errors: both ends are built from this package.
//
// # Events
//
// The events request turns the connection into a stream, like hostapd's
// ATTACH: the reply (errno=0 and the empty line) is followed by one line per
// station event until the client closes the connection or the daemon stops,
// in hostapd's control-interface form with airq's extras as key=value:
//
//	event    = [ "IFNAME=" IFNAME " " ] "<3>" KIND " " MAC *( " " KEY "=" N ) "\n"
//	         | "<3>EVENTS-LOST count=" N "\n"          ; the client fell behind
//	KIND     = AP-STA-CONNECTED | AP-STA-DISCONNECTED
//
// AP-STA-CONNECTED carries aid=, AP-STA-DISCONNECTED aid= and reason= (the
// 802.11 reason code). IFNAME= names the station's BSS, as hostapd's
// global control socket does, when the daemon names its BSSes. Nothing else is read from the client once it streams.
package ctl
