package main

import (
	"bytes"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/radio"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The station output's times are the printing side's: fixed here.
func init() {
	clock = func() ctl.Clock {
		return ctl.Clock{Wall: time.UnixMilli(1700000000123), Boot: 3600*time.Second + 250*time.Millisecond}
	}
}

// fakeAP is a control server with a small station table; set requests
// change it, so a later read shows their effect.
type fakeAP struct {
	mu       sync.Mutex
	stations []ctl.Station
	aql      ctl.AQL
	noScan   bool // airqd without -scan
	airtime  ctl.Airtime
}

func newFakeAP() *fakeAP {
	f := &fakeAP{aql: ctl.AQL{Low: ctl.PerAC{5000, 5000, 5000, 5000}, High: ctl.PerAC{12000, 12000, 12000, 12000},
		Threshold: 24000, Pending: ctl.PerAC{0, 0, 1400, 0}, PendingTotal: 1400, InFlight: ctl.PerAC{0, 0, 5, 0},
		FrameCap: ctl.PerAC{64, 64, 64, 64}}}
	f.stations = []ctl.Station{{
		Addr: ctl.MAC{2, 0, 0, 0, 1, 0}, AID: 1, BSS: "wlan0", Associated: true, WMM: true, ListenInt: 10, InactiveMs: 36,
		ConnectedMs: 61250, Signal: -42, SignalAvg: -43, TxBitrate: 54000, Authorized: true,
		TxRate: ctl.NewBitrate(radio.LegacyRate(54000)), ExpectedThroughput: 31000,
		RxRate: ctl.NewBitrate(radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW20}), RxBytes: 123456, RxPackets: 1234, TxBytes: 654321,
		TxPackets: 4321, TxRetries: 17, TxFailed: 2, TxAirtime: 250000, RxAirtime: 41000, RxBitrate: 65000, PHYMode: "HT", AirtimeWeight: 256,
		AirtimeDeficit: ctl.PerAC{256, 256, -1234, 256}, AQLPending: ctl.PerAC{0, 0, 1400, 0},
		AQLLimitLow: f.aql.Low, AQLLimitHigh: f.aql.High, InFlight: ctl.PerAC{0, 0, 5, 0},
		ACAirtime: ctl.PerAC{0, 0, 250000, 0}, QueueFramesTotal: 12,
		AMSDUs: 300, AMSDUSubframes: 1000, AMSDUMean: 1000.0 / 300, AMSDUBytes: 1514000,
	}, {
		Addr: ctl.MAC{2, 0, 0, 0, 1, 1}, AID: 2, BSS: "guest", Associated: true, ListenInt: 5, InactiveMs: 410, ConnectedMs: 3000,
		Signal: -71, SignalAvg: -70, TxBitrate: 11000, TxRate: ctl.NewBitrate(radio.LegacyRate(11000)), Authorized: true,
		AirtimeWeight: 256, AQLLimitLow: f.aql.Low, AQLLimitHigh: f.aql.High,
	}}
	f.airtime = ctl.Airtime{Mode: 1, ModeName: "static", UpdateIntervalMs: 200,
		BSSes: []ctl.AirtimeBSS{
			{Name: "airq0", BSSID: ctl.MAC{2, 0, 0, 0, 2, 0}, Weight: 256, CapPercent: 100, TxAirtimeUs: 250000},
			{Index: 1, Name: "guest", BSSID: ctl.MAC{2, 0, 0, 0, 2, 1}, Weight: 256, CapPercent: 100},
		},
		Stations: []ctl.AirtimeStation{
			{Addr: ctl.MAC{2, 0, 0, 0, 1, 0}, Weight: 256, BacklogFrames: 12, BacklogBytes: 16800, TxAirtimeUs: 250000},
			{Addr: ctl.MAC{2, 0, 0, 0, 1, 1}, BSS: 1, Weight: 256},
		}}
	return f
}

// setAirtime applies an airtime set request to the fake's policy: to the
// BSS it names, by name or index (the first if none).
func (f *fakeAP) setAirtime(req ctl.Request) ctl.Reply {
	a := &f.airtime
	b := -1
	for i := range a.BSSes {
		if req.BSS == "" && i == 0 || req.BSS == a.BSSes[i].Name || req.BSS == strconv.Itoa(i) {
			b = i
		}
	}
	if b < 0 {
		return ctl.Errorf(ctl.ENOENT, "airtime set: no BSS %q: the radio's are 0 (airq0), 1 (guest)", req.BSS)
	}
	switch req.Key {
	case "airtime_mode":
		a.Mode, a.ModeName = int(req.Value), [...]string{"off", "static", "dynamic", "limit"}[req.Value]
	case "airtime_bss_cap":
		a.BSSes[b].CapPercent = int(req.Value)
	case "airtime_bss_weight":
		a.BSSes[b].Weight = int(req.Value)
		for i := range a.Stations {
			if a.Stations[i].BSS == b && a.Stations[i].StaWeight == 0 {
				a.Stations[i].Weight = int(req.Value)
			}
		}
	case "airtime_sta_weight":
		for i := range a.Stations {
			if a.Stations[i].Addr == ctl.MAC(req.Addr) && a.Stations[i].BSS == b {
				a.Stations[i].StaWeight, a.Stations[i].Weight = int(req.Value), int(req.Value)
			}
		}
	default:
		return ctl.Errorf(ctl.EINVAL, "airtime set: %s: not in the fake", req.Key)
	}
	return f.answer(ctl.Request{Op: ctl.OpAirtime})
}

func (f *fakeAP) find(addr ctl.MAC) int {
	for i := range f.stations {
		if f.stations[i].Addr == addr {
			return i
		}
	}
	return -1
}

func (f *fakeAP) Control(req ctl.Request) ctl.Reply {
	f.mu.Lock()
	defer f.mu.Unlock()
	if req.Op == ctl.OpSnapshot {
		r := ctl.Reply{Status: f.answer(ctl.Request{Op: ctl.OpStatus}).Status,
			Stations: f.answer(ctl.Request{Op: ctl.OpStationDump}).Stations, AQL: f.answer(ctl.Request{Op: ctl.OpAQL}).AQL,
			Scheduler: f.answer(ctl.Request{Op: ctl.OpScheduler}).Scheduler, Devs: f.answer(ctl.Request{Op: ctl.OpDev}).Devs}
		if !f.noScan {
			r.Scan = f.answer(ctl.Request{Op: ctl.OpScan}).Scan
		}
		return r
	}
	return f.answer(req)
}

func (f *fakeAP) answer(req ctl.Request) ctl.Reply {
	if req.Dev != "" {
		return f.answerDev(req)
	}
	aql := f.aql
	switch req.Op {
	case ctl.OpDev:
		return ctl.Reply{Devs: []ctl.Dev{
			{Name: "wlan0", BSSID: ctl.MAC{2, 0, 0, 0, 2, 0}, SSID: "lab", Security: "WPA3-Personal", KeyMgmt: "SAE", PMF: "required", Channel: 6, Freq: 2437,
				Width: "20 MHz (no HT)", WMM: true, PHYMode: "802.11g", Holder: "airq0", TAP: "airq-tap0", Stations: 1, ProbeResponses: 40, AuthResponses: 2,
				AssocResponses: 1, Associations: 1, RxBytes: 123456, RxPackets: 1234, TxBytes: 654321, TxPackets: 4321,
				TxRetries: 17, TxFailed: 2, WiredIn: 4400, WiredOut: 1200, AckFrames: 1300, AckRetries: 12},
			{Name: "guest", Index: 1, BSSID: ctl.MAC{2, 0, 0, 0, 2, 1}, SSID: "guest", Security: "open", PMF: "off", Channel: 6,
				Freq: 2437, Width: "20 MHz (no HT)", PHYMode: "802.11g", Holder: "guest-ack", TAP: "guest", Stations: 1, ProbeResponses: 40, AuthResponses: 1,
				AssocResponses: 1, Associations: 1, AckFrames: 16, AckRetries: 12, AckUnanswered: 3},
		}}
	case ctl.OpStatus:
		st := &ctl.Status{SSID: "lab", BSSID: ctl.MAC{2, 0, 0, 0, 2, 0}, Channel: 6, Freq: 2437,
			BeaconInterval: 100, DTIMPeriod: 2, WMM: true, Scheduler: "production", TSF: 61500000,
			MaxStations: 2007, Security: "WPA2-Personal", KeyMgmt: "WPA-PSK", PMF: "off", PHYMode: "802.11g",
			Width: "20 MHz (no HT)", AirtimePending: 1400, InFlightFrames: 5, InFlightCap: 64, Scanning: !f.noScan,
			BeaconsEmitted: 600, BeaconEmitSum: 108000, BeaconEmitMean: 180, BeaconEmitMax: 2100, BeaconsEchoed: 598,
			BeaconEchoSum: 251160, BeaconEchoMean: 420, BeaconEchoMax: 5300, BeaconsMissed: 1}
		c := &st.Counters
		c[counter.Associated], c[counter.Beacons], c[counter.Echoes] = uint64(len(f.stations)), 600, 4900
		c[counter.EchoAcked], c[counter.WiredIn], c[counter.WiredSent] = 4900, 4500, 4400
		return ctl.Reply{Status: st}
	case ctl.OpStationDump:
		return ctl.Reply{Stations: append([]ctl.Station(nil), f.stations...)}
	case ctl.OpAQL:
		return ctl.Reply{AQL: &aql}
	case ctl.OpAQLSet:
		f.aql.Low[req.AC], f.aql.High[req.AC] = int64(req.Low), int64(req.High)
		aql = f.aql
		return ctl.Reply{AQL: &aql}
	case ctl.OpAQLThreshold:
		f.aql.Threshold = req.Threshold
		aql = f.aql
		return ctl.Reply{AQL: &aql}
	case ctl.OpScheduler:
		s := &ctl.Scheduler{Mode: "production", BacklogFrame: 12, BacklogBytes: 1176}
		for i := range s.AC {
			s.AC[i].AC = ctl.AC(i)
		}
		s.AC[2] = ctl.SchedulerAC{AC: 2, Round: 812, Open: true, Listed: 2, RoundsOpened: 812, RoundsClosed: 40,
			Selections: 1700, Skipped: 1, Airtime: 250000, CoDelDrops: 8, CoDelMarks: 2}
		return ctl.Reply{Scheduler: s}
	case ctl.OpAirtime:
		a := f.airtime
		a.BSSes = append([]ctl.AirtimeBSS(nil), a.BSSes...)
		a.Stations = append([]ctl.AirtimeStation(nil), a.Stations...)
		return ctl.Reply{Airtime: &a}
	case ctl.OpAirtimeSet:
		return f.setAirtime(req)
	case ctl.OpScan, ctl.OpScanDump, ctl.OpSurveyDump:
		switch {
		case f.noScan && req.Op == ctl.OpSurveyDump: // the operating channel alone
			return ctl.Reply{Surveys: []ctl.Survey{{Freq: 2437, InUse: true, Noise: -92, HasNoise: true, Active: 61000000,
				Busy: 9100000, Rx: 4000000, Tx: 3000000}}}
		case f.noScan:
			return ctl.Errorf(ctl.EOPNOTSUPP, "%v: scanning is off: start airqd with -scan", req)
		}
		switch req.Op {
		case ctl.OpScan:
			return ctl.Reply{Scan: &ctl.ScanStatus{Mode: "continuous", Channels: 3, TripLimit: 92400, Sweeping: true,
				SweepVisited: 1, SweepChannels: 3, Trips: 14, ActiveVisits: 18, PassiveVisits: 6, Sweeps: 5,
				SweepAge: 412, LastSweep: 716800, LongestSweep: 921600, LongestTrip: 61000, Deferred: 2, Forced: 1,
				Retunes: 52, RetuneMax: 1200, Away: 850000, ProbesSent: 36, BSSes: 2, TableUpdates: 140, TableAdded: 2}}
		case ctl.OpScanDump:
			return ctl.Reply{BSSes: []ctl.BSS{{
				BSSID: ctl.MAC{2, 0xbb, 0, 0, 0, 1}, SSID: "neighbour", Freq: 2437, HeardFreq: 2437, Signal: -61,
				HasSignal: true, LastSeen: 120, FirstSeen: 5400, Capability: 0x0411, BeaconInterval: 100,
				TSF: 90061000001, Beacons: 12, Rates: ctl.Rates{0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24, 0x30,
					0x48, 0x60, 0x6c, 0xff}, DSChannel: 6, HT: true, HTCapInfo: 0x012c, HTOper: true, HTPrimary: 6, RSN: true,
			}, {
				BSSID: ctl.MAC{2, 0xbb, 0, 0, 0, 2}, SSID: "lab 5g", Freq: 5180, HeardFreq: 5180, LastSeen: 3050,
				FirstSeen: 3050, Capability: 0x0001, BeaconInterval: 100, TSF: 3000, ProbeResps: 1, FromProbe: true,
				Rates: ctl.Rates{0x8c, 0x12, 0x98, 0x24}, HT: true, HTCapInfo: 0x09ef, HTOper: true, HTPrimary: 36,
				HTSecondary: 1, HTAnyWidth: true, VHT: true, VHTCapInfo: 0x0f8259b2, VHTOper: true, VHTWidth: 1,
				VHTSeg0: 42, VHTBasicMCS: 0xfffc,
			}}}
		}
		return ctl.Reply{Surveys: []ctl.Survey{
			{Freq: 2412, InUse: true, Noise: -95, HasNoise: true, Active: 61000000, Busy: 9100000, Rx: 4000000, Tx: 3000000},
			{Freq: 2437, Dwell: 610000, Visits: 12, Beacons: 48, BSSes: 1},
			{Freq: 5180, Dwell: 330000, Visits: 6, ProbeResps: 1, BSSes: 1},
		}}
	}
	i := f.find(ctl.MAC(req.Addr))
	if i < 0 {
		return ctl.Errorf(ctl.ENOENT, "station %s: not authenticated or associated", req.Addr)
	}
	switch req.Op {
	case ctl.OpStationSet:
		f.stations[i].AirtimeWeight = req.Weight
		fallthrough
	case ctl.OpStationGet:
		return ctl.Reply{Stations: []ctl.Station{f.stations[i]}}
	case ctl.OpStationRates:
		if i == 1 {
			return ctl.Reply{Rates: &ctl.RateTable{Addr: f.stations[i].Addr, Best: "CCK 11M", BestKbps: 11000}}
		}
		return ctl.Reply{Rates: &ctl.RateTable{Addr: f.stations[i].Addr, Selector: true, Best: "OFDM 54M",
			BestKbps: 54000, Frames: 4321, Samples: 190, Rows: []ctl.RateStats{
				{Mode: "OFDM", Guard: "-", Streams: 1, Name: "54M", Kbps: 54000, Best: true, Airtime: 300,
					MaxTP: 41.01333333333333, TP: 38.5, Prob: 0.9387, Measured: true, Retries: 7, LastSucc: 40,
					LastAtt: 42, Successes: 3900, Attempts: 4150, Samples: 12, FrameBytes: 1538},
				{Mode: "OFDM", Guard: "-", Streams: 1, Name: "48M", Kbps: 48000, Second: true, Airtime: 330,
					MaxTP: 37.28484848484848, TP: 35.1, Prob: 0.9412, Measured: true, Retries: 7, LastSucc: 2,
					LastAtt: 2, Successes: 200, Attempts: 210, Samples: 40, FrameBytes: 1538},
				{Mode: "CCK", Guard: "-", Streams: 1, Name: "1M", Kbps: 1000, Robust: true, Airtime: 12800,
					MaxTP: 0.96125, Retries: 7, FrameBytes: 1538},
			}}}
	case ctl.OpStationDel:
		f.stations = append(f.stations[:i], f.stations[i+1:]...)
		return ctl.Reply{}
	}
	return ctl.Errorf(ctl.EOPNOTSUPP, "%v", req)
}

// answerDev answers a station request scoped to one BSS: its stations
// alone, as the core does.
func (f *fakeAP) answerDev(req ctl.Request) ctl.Reply {
	if req.Dev != "wlan0" && req.Dev != "guest" {
		return ctl.Errorf(ctl.ENODEV, "dev %s: no such BSS", req.Dev)
	}
	if req.Op == ctl.OpStationDump {
		var out []ctl.Station
		for _, s := range f.stations {
			if s.BSS == req.Dev {
				out = append(out, s)
			}
		}
		return ctl.Reply{Stations: out}
	}
	if i := f.find(ctl.MAC(req.Addr)); i >= 0 && f.stations[i].BSS != req.Dev {
		return ctl.Errorf(ctl.ENOENT, "station %s: not a station of %s", req.Addr, req.Dev)
	}
	req.Dev = ""
	return f.answer(req)
}

// serve listens on a socket in a fresh directory and serves f until the
// test ends.
func serve(t *testing.T, f *fakeAP) string {
	t.Helper()
	return serveHandler(t, f)
}

// serveHandler serves any handler, streaming or not.
func serveHandler(t *testing.T, f ctl.Handler) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "airqd.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { defer c.Close(); ctl.Serve(c, f) })
		}
	})
	return path
}

// result is what one airqctl run shows the operator.
func result(args []string, code int, stdout, stderr string) []byte {
	return fmt.Appendf(nil, "$ airqctl %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(args, " "), code, stdout, stderr)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func runCtl(socket string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(append([]string{"-socket", socket}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// Every command against the fake, with its exact output. A command that
// changes state is followed by the read that shows the change.
func TestCommands(t *testing.T) {
	const mac, other = "02:00:00:00:01:00", "02:00:00:00:01:01"
	for _, c := range []struct {
		name  string
		steps [][]string
	}{
		{"status", [][]string{{"status"}}},
		{"status-json", [][]string{{"-json", "status"}}},
		{"station-dump", [][]string{{"station", "dump"}}},
		{"station-dump-json", [][]string{{"-json", "station", "dump"}}},
		{"station-dump-ifname", [][]string{{"-i", "wlan1mon", "station", "dump"}}},
		{"station-get", [][]string{{"station", "get", mac}}},
		{"station-get-json", [][]string{{"-json", "station", "get", mac}}},
		{"station-get-unknown", [][]string{{"station", "get", "02:00:00:00:09:09"}}},
		{"station-set", [][]string{{"station", "set", mac, "airtime_weight", "512"}, {"-json", "station", "get", mac}}},
		{"station-set-json", [][]string{{"-json", "station", "set", other, "airtime_weight", "1024"}}},
		{"station-del", [][]string{{"station", "del", other}, {"station", "dump"}, {"station", "del", other}}},
		{"station-del-all-json", [][]string{{"station", "del", mac}, {"station", "del", other}, {"-json", "station", "dump"}}},
		{"aql", [][]string{{"aql"}}},
		{"aql-json", [][]string{{"-json", "aql"}}},
		{"aql-set", [][]string{{"aql", "set", "BE", "500", "1000"}, {"aql"}}},
		{"aql-set-json", [][]string{{"-json", "aql", "set", "vi", "2000", "4000"}}},
		{"aql-threshold", [][]string{{"aql", "threshold", "9000"}, {"aql"}}},
		{"scheduler", [][]string{{"scheduler"}}},
		{"scheduler-json", [][]string{{"-json", "scheduler"}}},
		{"airtime", [][]string{{"airtime"}}},
		{"airtime-json", [][]string{{"-json", "airtime"}}},
		{"airtime-set", [][]string{{"airtime", "set", "airtime_bss_cap", "30"}, {"airtime", "set", "airtime_sta_weight", mac, "768"}, {"-json", "airtime"}}},
		{"airtime-set-bss", [][]string{{"airtime", "set", "bss", "guest", "airtime_bss_cap", "30"}, {"airtime", "set", "bss", "1", "airtime_bss_weight", "512"},
			{"airtime", "set", "bss", "guest", "airtime_sta_weight", other, "768"}, {"airtime", "set", "bss", "lab", "airtime_bss_cap", "30"}, {"-json", "airtime"}}},
		{"station-rates", [][]string{{"station", "get", mac, "rates"}, {"-i", "wlan1", "station", "get", other, "rates"}}},
		{"station-rates-json", [][]string{{"-json", "station", "get", mac, "rates"}}},
		{"station-rates-unknown", [][]string{{"station", "get", "02:00:00:00:09:09", "rates"}}},
		{"scan", [][]string{{"scan"}}},
		{"scan-json", [][]string{{"-json", "scan"}}},
		{"scan-dump", [][]string{{"scan", "dump"}, {"-i", "wlan1", "scan", "dump"}}},
		{"scan-dump-json", [][]string{{"-json", "scan", "dump"}}},
		{"survey-dump", [][]string{{"survey", "dump"}}},
		{"survey-dump-json", [][]string{{"-json", "survey", "dump"}}},
		{"scan-off", [][]string{{"scan"}, {"scan", "dump"}, {"survey", "dump"}, {"-json", "survey", "dump"}, {"status"}}},
		{"snapshot", [][]string{{"snapshot"}}},
		{"dev", [][]string{{"dev"}}},
		{"dev-json", [][]string{{"-json", "dev"}}},
		{"dev-station", [][]string{{"dev", "guest", "station", "dump"}, {"dev", "wlan0", "station", "get", other},
			{"dev", "guest", "station", "get", other}, {"dev", "lan", "station", "dump"}, {"-json", "dev", "wlan0", "station", "dump"}}},
		{"snapshot-json", [][]string{{"-json", "snapshot"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFakeAP()
			f.noScan = c.name == "scan-off"
			if c.name == "station-dump-ifname" {
				for i := range f.stations {
					f.stations[i].BSS = ""
				}
			}
			socket := serve(t, f)
			var got []byte
			for _, args := range c.steps {
				code, stdout, stderr := runCtl(socket, args...)
				got = append(got, result(args, code, stdout, stderr)...)
			}
			golden(t, c.name, got)
		})
	}
}

// Bad arguments never reach the daemon: a clear error naming the argument
// and exit status 2.
func TestBadArguments(t *testing.T) {
	socket := serve(t, newFakeAP())
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "missing command"},
		{[]string{"-bogus", "status"}, "flag provided but not defined: -bogus"},
		{[]string{"reboot"}, `unknown command "reboot"`},
		{[]string{"status", "now"}, `status: unexpected argument "now"`},
		{[]string{"station"}, "station: missing subcommand"},
		{[]string{"station", "get"}, `missing arguments: want "station get MAC"`},
		{[]string{"station", "get", "02:00"}, `MAC "02:00": want six hex octets`},
		{[]string{"station", "set", "02:00:00:00:01:00", "airtime_weight", "0"}, `airtime_weight "0": want 1 to 65535`},
		{[]string{"station", "set", "02:00:00:00:01:00", "txpower", "5"}, `attribute "txpower": want airtime_weight`},
		{[]string{"aql", "set", "XX", "1", "2"}, `AC "XX": want VO, VI, BE, BK`},
		{[]string{"aql", "set", "BE", "1"}, `want "aql set AC LOW HIGH [force]"`},
		{[]string{"aql", "set", "BE", "0", "0"}, "high 0 µs stops all BE traffic: add force (aql set BE 0 0 force)"},
		{[]string{"aql", "set", "BE", "2000", "1000"}, "low 2000 µs is above high 1000 µs"},
		{[]string{"-i"}, "flag needs an argument: -i\n(run airqctl help for the flags and commands)\n"},
		{[]string{"aql", "threshold", "-5"}, `aql threshold: "-5": want 0 to 4294967295 µs`},
		{[]string{"scheduler", "reset"}, `scheduler: unexpected argument "reset"`},
		{[]string{"airtime", "set", "airtime_bss_cap", "0"}, `airtime set: airtime_bss_cap "0": want 1 to 100`},
		{[]string{"airtime", "set", "bss", "guest", "airtime_mode", "2"}, `airtime set bss guest: airtime_mode is the radio's, not a BSS's`},
		{[]string{"scan", "list"}, `scan: unknown subcommand "list": want dump`},
		{[]string{"survey"}, "survey: missing subcommand: want survey dump"},
		{[]string{"station", "get", "02:00:00:00:01:00", "rate"}, `station get: attribute "rate": want rates`},
		{[]string{"dev", "guest"}, "dev guest: want station dump"},
		{[]string{"dev", "guest", "station", "dump", "all"}, `dev guest: station dump: unexpected argument "all"`},
	} {
		code, stdout, stderr := runCtl(socket, c.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("airqctl %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, stdout, stderr, c.want)
		}
	}
}

func TestNoDaemon(t *testing.T) {
	code, _, stderr := runCtl(filepath.Join(t.TempDir(), "absent.sock"), "status")
	if code != 1 || !strings.Contains(stderr, "is airqd running?") {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"help"}, {"-json", "help"}} {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		if code != 0 || errb.Len() != 0 || strings.Count(out.String(), "usage: airqctl") != 1 ||
			!strings.Contains(out.String(), "station set MAC airtime_weight N") || !strings.Contains(out.String(), "  top ") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out.String(), errb.String())
		}
	}
	// A mistake gets its one line and the way to the help, not the help.
	var out, errb bytes.Buffer
	if code := run([]string{"-bogus"}, &out, &errb); code != 2 || strings.Count(errb.String(), "\n") != 2 || out.Len() != 0 {
		t.Errorf("-bogus: exit %d\n%s", code, errb.String())
	}
}

// Without -socket, airqctl looks where airqd would put its socket.
func TestDefaultSocket(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", dir)
	paths := ctl.ClientSockets(os.Geteuid(), dir)
	if _, err := os.Stat(paths[0]); err == nil {
		t.Skipf("%s exists: a daemon runs here", paths[0])
	}
	if len(paths) == 1 {
		// root: the system path, which this test must not take over.
		code, _, stderr := runCtlArgs("status")
		if _, err := os.Stat(ctl.SystemSocket); err != nil && (code != 1 || !strings.Contains(stderr, ctl.SystemSocket)) {
			t.Errorf("root without a daemon: exit %d, %q", code, stderr)
		}
		return
	}
	if err := os.Mkdir(filepath.Dir(paths[0]), 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", paths[0])
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	code, _, stderr := runCtlArgs("status")
	if code != 1 || !strings.Contains(stderr, paths[0]) {
		t.Errorf("exit %d, %q; want the user's socket tried", code, stderr)
	}
}

func runCtlArgs(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}
