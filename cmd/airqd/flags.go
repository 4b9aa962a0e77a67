package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/aql"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/shell"
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
	freq     int    // -freq: MHz, the alternative to -channel
	control  string // control socket path; empty: none
	logLevel slog.Level
	core     ap.Config
	radioOpt radioOptions // qualify.go
	phyOpt   phyOptions   // phy.go
	acsOpt   acsOptions   // acs.go: -channel 0

	// Set by flags or the file, checked after both.
	wmm           bool
	aqlThreshold  uint
	airtimeWeight uint
	inflight      int
	level         string
	hwMode        string   // the file's hw_mode; "" if none
	acl           aclLists // macaddr_acl, accept_mac_file, deny_mac_file (acl.go)

	configPath string
	conf       *confFile       // nil without -config
	flagSet    map[string]bool // the flags given on the command line
	metrics    string          // listen address of /metrics; empty: none
	pcap       string          // capture file; empty: none
	pcapMax    int64           // bytes

	simStations int           // -radio sim: stations
	simJoin     time.Duration // -radio sim: interval between stations joining

	// Opened by run before the radio starts.
	srv     *shell.ControlServer // the loop's control path (a socket only with -control)
	pcapOut *pcapWriter          // nil without -pcap
	wired   *wiredView           // nil without -metrics
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
	fs.IntVar(&o.channel, "channel", 1, "operating channel (2.4 GHz: 1-14; 5 GHz needs -country); 0 picks it at start-up from a scan (ACS, see -acs-*)")
	fs.IntVar(&o.freq, "freq", 0, "operating channel by its centre frequency in MHz (2412-2484, 5180-5885), instead of -channel")
	fs.IntVar(&o.core.BeaconInterval, "beacon-int", 100, "beacon interval in TU (15-65535)")
	fs.IntVar(&o.core.DTIMPeriod, "dtim", 2, "DTIM period in beacons (1-255)")
	fs.IntVar(&o.core.MaxStations, "max-sta", 2007, "maximum associated stations (1-2007)")
	fs.BoolVar(&o.wmm, "wmm", true, "advertise WMM and send QoS data to WMM stations")
	o.core.AQL = aql.DefaultLimits()
	fs.Var(&o.core.AQL, "aql-txq-limit", "AQL low:high limits in µs per AC, like mac80211's aql_txq_limit: VO=5000:12000,BE=500:1000 (repeated flags merge)")
	fs.UintVar(&o.aqlThreshold, "aql-threshold", aql.DefaultThreshold, "AQL threshold in µs: above this total pending airtime stations get their low limit")
	fs.UintVar(&o.airtimeWeight, "airtime-weight", txq.DefaultWeight, "default airtime weight of a station (1-65535), the DRR quantum in µs")
	fs.IntVar(&o.inflight, "inflight-per-ac", aql.DefaultFrameCap, "frames in flight to the radio per AC (1-1024): mac80211 never pushes back on injection")
	o.radioOpt.register(fs)
	o.phyOpt.register(fs)
	o.acsOpt.register(fs)
	fs.StringVar(&o.level, "log-level", "info", "log level: debug, info, warn or error")
	defControl, noDefControl := ctl.DaemonSocket(os.Geteuid(), os.Getenv("XDG_RUNTIME_DIR"))
	if noDefControl != nil {
		defControl = "$XDG_RUNTIME_DIR/airq/airqd.sock"
	}
	fs.StringVar(&o.control, "control", defControl, "control socket for airqctl (mode 0660; empty: none); the default is "+
		ctl.SystemSocket+" for root, $XDG_RUNTIME_DIR/airq/airqd.sock for other users")
	fs.StringVar(&o.configPath, "config", "", "configuration file: a hostapd.conf subset plus airq's keys (see configs/airqd.conf); flags override it; SIGHUP reloads "+reloadable())
	fs.StringVar(&o.metrics, "metrics", "", "serve Prometheus metrics on http://ADDR/metrics, e.g. 127.0.0.1:9101 (empty: none)")
	fs.StringVar(&o.pcap, "pcap", "", "write the radio's received and sent frames (radiotap) to this pcap file (empty: none)")
	fs.IntVar(&o.simStations, "sim-stations", 4, "-radio sim: number of simulated stations (0-64), each with a bulk download and a ping")
	fs.DurationVar(&o.simJoin, "sim-join", 50*time.Millisecond, "-radio sim: interval between simulated stations joining, the first after one interval")
	pcapMB := fs.Int64("pcap-max-mb", 64, "stop capturing when the pcap file reaches this many MiB (1-65536)")
	// Parse's errors come back as one line, which run prints with a hint;
	// the usage goes out once, on -h.
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintf(os.Stdout, "usage: airqd [flags]\n")
			fs.SetOutput(os.Stdout)
			fs.PrintDefaults()
		}
		return o, err
	}
	o.flagSet = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.flagSet[f.Name] = true })
	if o.flagSet["freq"] {
		if o.flagSet["channel"] {
			return o, fmt.Errorf("-channel %d and -freq %d: give one of them", o.channel, o.freq)
		}
		ch, err := freqChannel(o.freq)
		if err != nil {
			return o, err
		}
		o.channel = ch
	}
	if o.configPath != "" {
		c, err := readConfig(o.configPath)
		if err != nil {
			return o, err
		}
		if err := c.apply(&o, o.flagSet); err != nil {
			return o, err
		}
		o.conf = c
	}
	if noDefControl != nil && o.control == defControl {
		return o, fmt.Errorf("-control: %v: give -control PATH (-control \"\" for none), or run airqd as root (sudo)", noDefControl)
	}
	if err := o.radioOpt.check(); err != nil {
		return o, err
	}
	if err := o.phyOpt.apply(&o); err != nil {
		return o, err
	}
	if err := o.acsOpt.check(); err != nil {
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
	if o.aqlThreshold < 1 || o.aqlThreshold > 1<<31 {
		return o, fmt.Errorf("-aql-threshold: %d µs, want 1 to 2147483648", o.aqlThreshold)
	}
	o.core.AQL.Threshold = uint32(o.aqlThreshold)
	if o.airtimeWeight < 1 || o.airtimeWeight > 65535 {
		return o, fmt.Errorf("-airtime-weight: %d, want 1 to 65535", o.airtimeWeight)
	}
	o.core.AirtimeWeight = uint16(o.airtimeWeight)
	o.core.InFlightPerAC = o.inflight
	if err := o.logLevel.UnmarshalText([]byte(o.level)); err != nil {
		return o, fmt.Errorf("-log-level: %q, want debug, info, warn or error", o.level)
	}
	if *pcapMB < 1 || *pcapMB > 65536 {
		return o, fmt.Errorf("-pcap-max-mb: %d, want 1 to 65536", *pcapMB)
	}
	o.pcapMax = *pcapMB << 20
	if o.simStations < 0 || o.simStations > 64 {
		return o, fmt.Errorf("-sim-stations: %d, want 0 to 64", o.simStations)
	}
	if o.simJoin < 0 || o.simJoin > time.Hour {
		return o, fmt.Errorf("-sim-join: %v, want 0 to 1h", o.simJoin)
	}
	if o.pcap != "" && o.radio == "sim" {
		return o, fmt.Errorf("-pcap: needs -radio nl80211 (the simulated medium has no radio frames to capture)")
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
	if o.flagSet["freq"] {
		o.core.Freq = o.freq
	}
	o.core.ACL = o.acl.acl()
	o.core.WMM = o.wmm
	return o, nil
}
