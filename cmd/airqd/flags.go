package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/aql"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/txq"
)

type options struct {
	radio    string
	phy      string
	ifname   string
	tap      string
	bssid    string
	ssid     string
	channel  int
	control  string // control socket path; empty: none
	logLevel slog.Level
	core     ap.Config
	radioOpt radioOptions // qualify.go
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("airqd", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.radio, "radio", "nl80211", "radio backend: nl80211 (a real phy) or sim (the simulated medium)")
	fs.StringVar(&o.phy, "phy", "", "wiphy to drive, e.g. phy0 (required with -radio nl80211)")
	fs.StringVar(&o.ifname, "ifname", "airq0", "name of the monitor interface airqd creates")
	fs.StringVar(&o.tap, "tap", "airq-tap0", "name of the TAP interface that carries the stations' traffic")
	fs.StringVar(&o.bssid, "bssid", "", "BSSID and monitor MAC address (default: the phy's permanent address)")
	fs.StringVar(&o.ssid, "ssid", "airq", "network name (1 to 32 bytes)")
	fs.IntVar(&o.channel, "channel", 1, "operating channel (2.4 GHz: 1-14; 5 GHz needs -country)")
	fs.IntVar(&o.core.BeaconInterval, "beacon-int", 100, "beacon interval in TU (15-65535)")
	fs.IntVar(&o.core.DTIMPeriod, "dtim", 2, "DTIM period in beacons (1-255)")
	fs.IntVar(&o.core.MaxStations, "max-sta", 2007, "maximum associated stations (1-2007)")
	wmm := fs.Bool("wmm", true, "advertise WMM and send QoS data to WMM stations")
	o.core.AQL = aql.DefaultLimits()
	fs.Var(&o.core.AQL, "aql-txq-limit", "AQL low:high limits in µs per AC, like mac80211's aql_txq_limit: VO=5000:12000,BE=500:1000 (repeated flags merge)")
	threshold := fs.Uint("aql-threshold", aql.DefaultThreshold, "AQL threshold in µs: above this total pending airtime stations get their low limit")
	weight := fs.Uint("airtime-weight", txq.DefaultWeight, "default airtime weight of a station (1-65535), the DRR quantum in µs")
	inflight := fs.Int("inflight-per-ac", aql.DefaultFrameCap, "frames in flight to the radio per AC (1-1024): mac80211 never pushes back on injection")
	o.radioOpt.register(fs)
	level := fs.String("log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&o.control, "control", "/run/airq/airqd.sock", "control socket for airqctl (mode 0660; empty: none)")
	fs.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: airqd [flags]\n")
		fs.SetOutput(os.Stderr)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fs.Usage()
		}
		return o, err
	}
	if err := o.radioOpt.check(); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	switch o.radio {
	case "nl80211", "sim":
	default:
		return o, fmt.Errorf("-radio: %q, want nl80211 or sim", o.radio)
	}
	if o.radio == "nl80211" && o.phy == "" {
		return o, fmt.Errorf("-phy: required with -radio nl80211 (see `iw phy`)")
	}
	if *threshold < 1 || *threshold > 1<<31 {
		return o, fmt.Errorf("-aql-threshold: %d µs, want 1 to 2147483648", *threshold)
	}
	o.core.AQL.Threshold = uint32(*threshold)
	if *weight < 1 || *weight > 65535 {
		return o, fmt.Errorf("-airtime-weight: %d, want 1 to 65535", *weight)
	}
	o.core.AirtimeWeight = uint16(*weight)
	o.core.InFlightPerAC = *inflight
	if err := o.logLevel.UnmarshalText([]byte(*level)); err != nil {
		return o, fmt.Errorf("-log-level: %q, want debug, info, warn or error", *level)
	}
	if o.bssid != "" {
		mac, err := ieee80211.ParseMAC(o.bssid)
		if err != nil || mac.IsMulticast() || mac.IsZero() {
			return o, fmt.Errorf("-bssid: %q is not a unicast MAC address like 02:00:00:00:02:00", o.bssid)
		}
		o.core.BSSID = mac
	}
	if strings.TrimSpace(o.ifname) == "" || len(o.ifname) > 15 {
		return o, fmt.Errorf("-ifname: %q, want 1 to 15 characters", o.ifname)
	}
	if strings.TrimSpace(o.tap) == "" || len(o.tap) > 15 {
		return o, fmt.Errorf("-tap: %q, want 1 to 15 characters", o.tap)
	}
	if len(o.control) > 107 { // sun_path holds 108 bytes with the NUL
		return o, fmt.Errorf("-control: %q is %d bytes, want at most 107 (a unix socket path)", o.control, len(o.control))
	}
	o.core.SSID = o.ssid
	o.core.Channel = o.channel
	o.core.WMM = *wmm
	return o, nil
}
