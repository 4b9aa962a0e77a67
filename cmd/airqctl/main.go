package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/airq/airq/ctl"
)

// timeout bounds a whole exchange: a stuck daemon must not hang the
// operator's shell or a monitoring script.
const timeout = 10 * time.Second

const usage = `usage: airqctl [-socket PATH] [-json] [-i IFNAME] COMMAND

commands:
  help                               this text
  status                             the BSS and the daemon's counters, like hostapd_cli status
  station dump                       every station, like iw dev IFNAME station dump
  station get MAC                    one station
  station get MAC rates              the station's rate table, like minstrel_ht's rc_stats
  station set MAC airtime_weight N   set a station's airtime weight (1-65535), live
  station del MAC                    deauthenticate and remove a station
  dev                                the radio's BSSes, like iw dev: name, address, SSID, channel,
                                     the interface holding the address, TAP, stations, counters
                                     and frames nobody ACKed (the hardware does not ACK the BSSID)
  dev NAME station ...               any station command above for the BSS NAME alone, like
                                     iw dev NAME station dump (without it: every BSS's stations)
  aql                                aql_txq_limit, aql_threshold and aql_pending, like mac80211's debugfs
  aql set AC LOW HIGH [force]        set an AC's AQL limits in µs (AC: VO, VI, BE or BK), live;
                                     LOW <= HIGH, and a zero limit needs force (0 0 stops the AC)
  aql threshold N                    set the AQL threshold in µs, live
  scheduler                          per-AC airtime scheduler counters
  airtime                            the airtime policy (hostapd's airtime_mode), each BSS's weight,
                                     limit, cap and airtime, each station's weight and backlog
  airtime set [bss NAME|INDEX] KEY [MAC] N
                                     set an airtime key, live: the radio's airtime_mode 0-3 and
                                     airtime_update_interval MS; a BSS's (the first, or the one
                                     named, by name or index, 0 the first) airtime_bss_weight N,
                                     airtime_bss_limit 0|1, airtime_bss_cap PERCENT (100: none),
                                     airtime_sta_weight MAC N (0: removed)
  scan                               background scan status: trips, sweeps, time away (airqd -scan)
  scan dump                          the BSSs heard, like iw dev IFNAME scan dump
  survey dump                        per-channel survey, like iw dev IFNAME survey dump
  acs                                the start-up channel selection (airqd -channel 0) and its figures
  snapshot                           status, dev, station dump, aql, scheduler and scan read at one instant
                                     (what airqd's /metrics reads)
  events                             stream station events like hostapd_cli's
                                     (<3>AP-STA-CONNECTED MAC ...) until interrupted
  top [-b] [-n N] [-d INTERVAL]      a live per-station view (airtime share, throughput, rate,
                                     AQL pending, queued frames), refreshed every second
                                     (airqctl top -h for more)

The socket is airqd's -control path. By default airqctl looks where airqd
puts it: $XDG_RUNTIME_DIR/airq/airqd.sock for a user's own airqd, then
/run/airq/airqd.sock (root's airqd; its group may connect).

flags:
`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is main with its streams and exit status explicit, for tests.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("airqctl", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	socket := fs.String("socket", "", "airqd's control socket (airqd -control); default: see above")
	asJSON := fs.Bool("json", false, "print the reply as JSON")
	ifname := fs.String("i", "airq0", "interface name shown in BSS and survey headers, as in iw dev IFNAME scan dump, and in station headers when airqd names no BSS")
	printUsage := func(w io.Writer) {
		fmt.Fprint(w, usage)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return 0
		}
		fmt.Fprintf(stderr, "airqctl: %v\n(run airqctl help for the flags and commands)\n", err)
		return 2
	}
	switch {
	case fs.NArg() == 0:
		fmt.Fprintln(stderr, "airqctl: missing command\n(run airqctl help for the commands)")
		return 2
	case fs.Arg(0) == "help":
		printUsage(stdout)
		return 0
	case fs.Arg(0) == "top":
		return top(fs.Args()[1:], *socket, stdout, stderr, *ifname, *asJSON)
	}
	req, err := ctl.ParseRequest(strings.Join(fs.Args(), " "))
	if err != nil {
		fmt.Fprintf(stderr, "airqctl: %v\n(run airqctl help for the commands)\n", err)
		return 2
	}
	if req.Op == ctl.OpEvents {
		return events(*socket, stdout, stderr, *asJSON)
	}
	rep, err := do(*socket, req)
	if err != nil {
		fmt.Fprintf(stderr, "airqctl: %v\n", err)
		return 1
	}
	if err := show(stdout, req, &rep, *asJSON, *ifname); err != nil {
		fmt.Fprintf(stderr, "airqctl: %v\n", err)
		return 1
	}
	return 0
}

// do sends one request on a fresh connection.
func do(socket string, req ctl.Request) (ctl.Reply, error) {
	c, err := dial(socket)
	if err != nil {
		return ctl.Reply{}, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(timeout))
	return ctl.NewClient(c).Do(req)
}

// events prints the stream until the daemon ends it (exit 1: the operator
// should know the stream stopped) or the process is interrupted.
func events(socket string, stdout, stderr io.Writer, asJSON bool) int {
	c, err := dial(socket)
	if err != nil {
		fmt.Fprintf(stderr, "airqctl: %v\n", err)
		return 1
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(timeout))
	cl := ctl.NewClient(c)
	if err := cl.Subscribe(); err != nil {
		fmt.Fprintf(stderr, "airqctl: %v\n", err)
		return 1
	}
	c.SetDeadline(time.Time{}) // events come when stations come
	enc := json.NewEncoder(stdout)
	var line []byte
	for {
		e, err := cl.NextEvent()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("airqd closed the event stream")
			}
			fmt.Fprintf(stderr, "airqctl: %v\n", err)
			return 1
		}
		if asJSON {
			err = enc.Encode(&e)
		} else {
			line = e.AppendText(line[:0])
			_, err = stdout.Write(line)
		}
		if err != nil {
			return 1
		}
	}
}
