package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/config"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/pcap"
	"github.com/airq/airq/scan"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/sim"
	"github.com/airq/airq/txq"
)

// options are the settings the flags and the file give (config.Settings),
// the flags no key has, and what run opens before the radio starts.
type options struct {
	config.Settings

	freq      int // -freq: MHz, the alternative to -channel
	takeover  bool
	qualify   bool // run the qualification alone and exit
	noQualify bool
	shortGI   bool // -short-gi: at every width used
	logLevel  slog.Level
	biases    []scan.Bias // -acs-chan-bias, parsed
	noBias    bool

	configPath     string
	checkPath      string          // -check-config: check this file and exit
	conf           *config.File    // nil without -config
	warnings       config.Problems // what the file and the checks accept with a warning
	flagSet        map[string]bool // the flags given on the command line
	extraConf      []byte          // lines read with the file's, each in its section (SET on the hostapd sockets)
	pprof          string          // -pprof: serve the runtime's profiles here
	Global         string          // -g: hostapd's global control socket
	GlobalGroup    string          // -G: its group
	hostapdTesting bool            // -hostapd-testing: hostapd's testing commands
	// closeHostapd closes hostapd's sockets (startHostapdAll).
	closeHostapd func()
	pcapMB       int64
	pcapMax      int64 // bytes
	pcapRotate   int   // -pcap-rotate: files in the ring; 0: one file

	simScenario sim.Scenario // -radio sim: the stations (sim.go)

	// Opened by run before the radio starts.
	srv     *shell.ControlServer // the loop's control path (a socket only with -control)
	pcapOut *pcap.Writer         // nil without -pcap
	wired   *wiredView           // nil without -metrics
	// keepControl: the radio's loop leaves srv open (radioRestarts);
	// onReady, when set, hears that the radio is up.
	keepControl bool
	onReady     func()
}

// keepOpened gives o, a configuration the radio starts again with, what
// the process opened for the running one (from): its control path, pcap,
// metrics view and hostapd sockets outlive a restart of the radio.
func (o *options) keepOpened(from *options) {
	o.srv, o.pcapOut, o.wired, o.closeHostapd = from.srv, from.pcapOut, from.wired, from.closeHostapd
}

// defaultNice puts the datapath ahead of the applications it serves.
const defaultNice = -10

func (o *options) register(fs *flag.FlagSet) {
	fs.StringVar(&o.Radio, "radio", "nl80211", "radio backend: nl80211 (a real phy) or sim (the simulated medium)")
	fs.StringVar(&o.Phy, "phy", "", "wiphy to drive, e.g. phy0 (required with -radio nl80211)")
	fs.StringVar(&o.Ifname, "ifname", "airq0", "name of the monitor interface airqd creates")
	fs.StringVar(&o.Tap, "tap", "airq-tap0", "name of the TAP interface that carries the stations' traffic")
	fs.StringVar(&o.BSSID, "bssid", "", "BSSID and monitor MAC address (default: the phy's permanent address)")
	fs.StringVar(&o.Core.SSID, "ssid", "airq", "network name (1 to 32 bytes)")
	fs.IntVar(&o.Channel, "channel", 1, "operating channel (2.4 GHz: 1-14; 5 GHz needs -country); 0 picks it at start-up from a scan (ACS, see -acs-*)")
	fs.IntVar(&o.freq, "freq", 0, "operating channel by its centre frequency in MHz (2412-2484, 5180-5885), instead of -channel")
	fs.IntVar(&o.Core.BeaconInterval, "beacon-int", 100, "beacon interval in TU (15-65535)")
	fs.IntVar(&o.Core.DTIMPeriod, "dtim", 2, "DTIM period in beacons (1-255)")
	fs.IntVar(&o.Core.MaxStations, "max-sta", 2007, "maximum associated stations (1-2007)")
	fs.BoolVar(&o.Core.WMM, "wmm", true, "advertise WMM and send QoS data to WMM stations")
	o.Core.AQL = aql.DefaultLimits()
	fs.Var(&o.Core.AQL, "aql-txq-limit", "AQL low:high limits in µs per AC, like mac80211's aql_txq_limit: VO=5000:12000,BE=500:1000 (repeated flags merge)")
	fs.UintVar(&o.AQLThreshold, "aql-threshold", aql.DefaultThreshold, "AQL threshold in µs: above this total pending airtime stations get their low limit")
	fs.UintVar(&o.AirtimeWeight, "airtime-weight", txq.DefaultWeight, "default airtime weight of a station (1-65535), the DRR quantum in µs")
	fs.IntVar(&o.Core.InFlightPerAC, "inflight-per-ac", aql.DefaultFrameCap, "frames in flight to the radio per AC (1-1024): mac80211 never pushes back on injection")
	o.registerRadio(fs)
	o.registerPHY(fs)
	o.registerACS(fs)
	fs.StringVar(&o.LogLevel, "log-level", "info", "log level: debug, info, warn or error")
	defControl, noDefControl := ctl.DaemonSocket(os.Geteuid(), os.Getenv("XDG_RUNTIME_DIR"))
	if noDefControl != nil {
		defControl = "$XDG_RUNTIME_DIR/airq/airqd.sock"
	}
	fs.StringVar(&o.Control, "control", defControl, "control socket for airqctl (mode 0660; empty: none); the default is "+
		ctl.SystemSocket+" for root, $XDG_RUNTIME_DIR/airq/airqd.sock for other users")
	fs.StringVar(&o.configPath, "config", "", "configuration file: a hostapd.conf subset plus airq's keys (see configs/airqd.conf); flags override it; SIGHUP reloads "+strings.Join(config.Reloadable(), ", "))
	fs.StringVar(&o.checkPath, "check-config", "", "check this configuration file with the other flags given, print every problem with its line and exit: 0 if airqd would start (warnings alone do not fail), 2 if not")
	fs.StringVar(&o.Metrics, "metrics", "", "serve Prometheus metrics on http://ADDR/metrics, e.g. 127.0.0.1:9101 (empty: none)")
	fs.StringVar(&o.pprof, "pprof", "", "debugging: serve the Go runtime's profiles (heap, goroutines, CPU, execution trace) on http://ADDR/debug/pprof/, e.g. 127.0.0.1:6060 (empty: none)")
	fs.StringVar(&o.Pcap, "pcap", "", "write the radio's received and sent frames (radiotap) to this pcap file (empty: none)")
	fs.Int64Var(&o.pcapMB, "pcap-max-mb", 64, "stop capturing when the pcap file reaches this many MiB (1-65536); with -pcap-rotate, the size of each file")
	fs.IntVar(&o.pcapRotate, "pcap-rotate", 0, "keep a ring of this many pcap files (2-1000) of -pcap-max-mb each, FILE, FILE1, FILE2, ... as tcpdump -C -W names them, overwriting the oldest, so a long run keeps its last frames; 0: one file, the capture stops when it is full")
	o.registerScanBounds(fs)
	o.registerSim(fs)
	o.registerHostapd(fs)
}

// registerRadio adds the flags of the real radio's start-up: regulatory
// domain, coexistence, bridge, TAP, priority and hardware qualification.
func (o *options) registerRadio(fs *flag.FlagSet) {
	fs.StringVar(&o.Country, "country", "", "ISO 3166 country the radio operates in (e.g. US, DE); sets the kernel's regulatory domain; needed for 5 GHz")
	fs.BoolVar(&o.IEEE80211D, "ieee80211d", false, "advertise the country in beacons and probe responses (the Country element, 802.11d; needs -country)")
	fs.BoolVar(&o.takeover, "takeover", false, "bring down the interfaces that block the phy (a managed interface kept up by a network manager) and delete stale airq monitors")
	fs.StringVar(&o.Bridge, "bridge", "", "Linux bridge to add the TAP interface to (like hostapd's bridge=)")
	fs.BoolVar(&o.qualify, "qualify", false, "check what the radio can do (active monitor, TX echoes, ACK status, sequence numbers, rate, retune time), print the report and exit")
	fs.BoolVar(&o.noQualify, "no-qualify", false, "skip the hardware qualification at start-up")
	fs.IntVar(&o.Nice, "nice", defaultNice, "nice value of airqd's threads, -20 to 19: the datapath must not wait behind the traffic's senders and receivers on the same core (raising it needs CAP_SYS_NICE, or Nice= in the unit)")
	fs.IntVar(&o.MemoryLimitMB, "memory-limit", 0, "the Go runtime's soft memory limit in MiB, 32 to 65536; 0 (the default) derives it: 1.5 times the most the core can hold (its tables, full slab pools, a full table of stations with rate tables and keys)")
	fs.Var(offloadFlag{&o.TapOffload}, "tap-offload", "TAP offloads: gro (merge a station's TCP segments into one write to the host), tso (gro, and take the host's 64 KiB TCP sends and cut them: fewer reads, 12% faster down in measurements) or off (default: tso when the datapath runs at a nice value below 0, else gro)")
}

// newFlagSet is airqd's flags, writing to o.
func newFlagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("airqd", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.register(fs)
	// Parse's errors come back as one line, which run prints with a hint;
	// the usage goes out once, on -h.
	fs.Usage = func() {}
	return fs
}

// parseFlags reads the command line and the -config file over it, checks
// them and builds the core's configuration.
func parseFlags(args []string) (options, error) { return parseFlagsWith(args, nil) }

// parseFlagsWith is parseFlags with extra configuration lines after the
// file's (the hostapd socket's SET).
func parseFlagsWith(args []string, extra []byte) (options, error) {
	o := options{extraConf: extra}
	fs := newFlagSet(&o)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintf(os.Stdout, "usage: airqd [flags]\n")
			fs.SetOutput(os.Stdout)
			fs.PrintDefaults()
		}
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	o.flagSet = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.flagSet[f.Name] = true })
	ps := o.readFile()
	for _, check := range []func() error{o.checkRadio, o.applyPHY, o.checkACS, o.checkScanBounds, o.checkDaemon, o.checkSim, o.checkNames, o.checkHostapd, o.checkBSSNames} {
		if err := check(); err != nil {
			ps = append(ps, o.problems(err)...)
		}
	}
	if ps.Err() == nil { // the core's own checks, on settings that passed these
		if err := o.checkCore(); err != nil {
			ps = append(ps, o.problems(err)...)
		}
	}
	o.Core.Channel = o.Channel
	o.warnings = ps.Warnings()
	return o, ps.Err() // every problem at once
}

// readFile resolves -freq, then applies -config's file (-check-config's)
// over the flags' defaults, leaving the keys of the flags given.
func (o *options) readFile() config.Problems {
	var ps config.Problems
	if o.flagSet["freq"] {
		ch, err := freqChannel(o.freq)
		if o.flagSet["channel"] {
			err = fmt.Errorf("-channel %d and -freq %d: give one of them", o.Channel, o.freq)
		}
		if err != nil {
			ps = append(ps, config.Problem{Msg: err.Error()})
		}
		o.Channel, o.Core.Freq = ch, o.freq
	}
	flag, path := "-config", o.configPath
	if o.checkPath != "" {
		flag, path = "-check-config", o.checkPath
	}
	if path == "" && len(o.extraConf) == 0 {
		return ps
	}
	var b []byte
	if path != "" {
		var err error
		if b, err = os.ReadFile(path); err != nil {
			return append(ps, config.Problem{Msg: fmt.Sprintf("%s: %v", flag, err)})
		}
		if len(b) > 0 && b[len(b)-1] != '\n' {
			b = append(b, '\n')
		}
	}
	b = config.MergeSections(b, o.extraConf) // each SET line in its BSS's section
	o.configPath = path
	var fps config.Problems
	name := path
	if name == "" {
		name = "SET" // the hostapd socket's lines alone
	}
	o.conf, fps = config.Load(name, b, &o.Settings, o.flagSet)
	return append(ps, fps...)
}

// freqChannel maps -freq to the channel, for a 2.4 or 5 GHz channel's centre
// frequency.
func freqChannel(freq int) (int, error) {
	ch := ieee80211.FreqToChannel(freq)
	band := ieee80211.Band2GHz
	if freq > 3000 {
		band = ieee80211.Band5GHz
	}
	if ch == 0 || freq > 5900 || ieee80211.ChannelToFreq(ch, band) != freq {
		return 0, fmt.Errorf("-freq: %d MHz is not a 2.4 GHz (2412-2484) or 5 GHz (5180-5885) channel's centre frequency", freq)
	}
	return ch, nil
}

// checkRadio checks the real radio's settings.
func (o *options) checkRadio() error {
	if o.Country != "" {
		o.Country = strings.ToUpper(o.Country)
		if len(o.Country) != 2 || o.Country[0] < 'A' || o.Country[0] > 'Z' || o.Country[1] < 'A' || o.Country[1] > 'Z' {
			return fmt.Errorf("-country: %q, want a two-letter code such as US or DE", o.Country)
		}
	}
	if o.IEEE80211D && o.Country == "" && o.flagSet["ieee80211d"] { // hostapd's words; the file's key is checked with the file
		return fmt.Errorf("-ieee80211d: cannot enable IEEE 802.11d without setting the country_code (-country)")
	}
	if o.qualify && o.noQualify {
		return fmt.Errorf("-qualify and -no-qualify contradict each other")
	}
	if o.Nice < -20 || o.Nice > 19 {
		return fmt.Errorf("-nice: %d, want -20 to 19", o.Nice)
	}
	if o.MemoryLimitMB != 0 && (o.MemoryLimitMB < 32 || o.MemoryLimitMB > 65536) {
		return fmt.Errorf("-memory-limit: %d, want 0 (derived) or 32 to 65536 MiB", o.MemoryLimitMB)
	}
	if len(o.Bridge) > 15 {
		return fmt.Errorf("-bridge: %q, want at most 15 characters", o.Bridge)
	}
	return nil
}

// checkDaemon checks the radio backend, the limits, the log level and the
// capture, and puts the checked values into the core's
// configuration.
func (o *options) checkDaemon() error {
	switch o.Radio {
	case "nl80211", "sim":
	default:
		return fmt.Errorf("-radio: %q, want nl80211 or sim", o.Radio)
	}
	if o.Radio == "nl80211" && o.Phy == "" && o.Interface == "" {
		return fmt.Errorf("-phy: required with -radio nl80211: the wiphy to drive, such as phy0 (see `iw phy`), or phy= or interface= in the file")
	}
	if o.AQLThreshold < 1 || o.AQLThreshold > 1<<31 {
		return fmt.Errorf("-aql-threshold: %d µs, want 1 to 2147483648", o.AQLThreshold)
	}
	o.Core.AQL.Threshold = uint32(o.AQLThreshold)
	if o.AirtimeWeight < 1 || o.AirtimeWeight > 65535 {
		return fmt.Errorf("-airtime-weight: %d, want 1 to 65535", o.AirtimeWeight)
	}
	o.Core.AirtimeWeight = uint16(o.AirtimeWeight)
	o.Core.Airtime = o.Settings.CoreAirtime()
	o.Core.Name, o.Core.BSSes = o.FirstBSSName(), o.CoreBSSes()
	if err := o.logLevel.UnmarshalText([]byte(o.LogLevel)); err != nil {
		return fmt.Errorf("-log-level: %q, want debug, info, warn or error", o.LogLevel)
	}
	if o.pcapMB < 1 || o.pcapMB > 65536 {
		return fmt.Errorf("-pcap-max-mb: %d, want 1 to 65536", o.pcapMB)
	}
	o.pcapMax = o.pcapMB << 20
	if o.pcapRotate != 0 && (o.pcapRotate < 2 || o.pcapRotate > 1000) {
		return fmt.Errorf("-pcap-rotate: %d, want 0 (one file) or 2 to 1000 files", o.pcapRotate)
	}
	return nil
}

// checkNames checks the addresses, interface names and the socket path.
func (o *options) checkNames() error {
	if _, err := ctl.DaemonSocket(os.Geteuid(), os.Getenv("XDG_RUNTIME_DIR")); err != nil && o.Control == "$XDG_RUNTIME_DIR/airq/airqd.sock" {
		return fmt.Errorf("-control: %v: give -control PATH (-control \"\" for none), or run airqd as root (sudo)", err)
	}
	if o.BSSID != "" {
		mac, err := ieee80211.ParseMAC(o.BSSID)
		if err != nil || mac.IsMulticast() || mac.IsZero() {
			return fmt.Errorf("-bssid: %q is not a unicast MAC address like 02:00:00:00:02:00", o.BSSID)
		}
		o.Core.BSSID = mac
	}
	if strings.TrimSpace(o.Ifname) == "" || len(o.Ifname) > 15 {
		return fmt.Errorf("-ifname: %q, want 1 to 15 characters", o.Ifname)
	}
	if strings.TrimSpace(o.Tap) == "" || len(o.Tap) > 15 {
		return fmt.Errorf("-tap: %q, want 1 to 15 characters", o.Tap)
	}
	if len(o.Control) > 107 { // sun_path holds 108 bytes with the NUL
		return fmt.Errorf("-control: %q is %d bytes, want at most 107 (a unix socket path)", o.Control, len(o.Control))
	}
	// The first BSS's holder and TAP, as airqctl dev shows them beside its
	// name (checkDaemon): the monitor that holds its address and its TAP;
	// the simulator has neither.
	if o.Radio != "sim" {
		o.Core.Holder, o.Core.TAP = o.Ifname, o.Tap
	}
	return nil
}
