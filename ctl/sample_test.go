package ctl

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/radio"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func sampleStatus() *Status {
	s := &Status{SSID: "airq \"lab\"", BSSID: MAC{2, 0, 0, 0, 2, 0}, Channel: 6, Freq: 2437, BeaconInterval: 100,
		DTIMPeriod: 2, WMM: true, Scheduler: "production", TSF: 123456789, MaxStations: 2007, Security: "WPA2-Personal",
		KeyMgmt: "WPA-PSK WPA-PSK-SHA256", PMF: "optional", PHYMode: "802.11n", Width: "HT40+", AirtimePending: 1400,
		InFlightFrames: 5, InFlightCap: 64, Scanning: true, BeaconsEmitted: 1205, BeaconEmitSum: 216900,
		BeaconEmitMean: 180, BeaconEmitMax: 2100, BeaconsEchoed: 1203, BeaconEchoSum: 505260, BeaconEchoMean: 420,
		BeaconEchoMax: 5300, BeaconsMissed: 1, ChanUtil: 72, ChanUtilAvg: 64, HT: true, SecondaryChannel: 1, Rates: Rates{0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24},
		NumNonERP: 1, NumNoShortSlot: 1, NumNoShortPreamble: 1, NumNoHT: 1, NumHTNoGF: 1, HTOpMode: 0x17}
	for id, v := range map[counter.ID]uint64{counter.Associated: 2, counter.Authenticated: 1, counter.Backlog: 12,
		counter.RxFrames: 1000, counter.RxMalformed: 1, counter.Echoes: 900, counter.NoStatus: 3, counter.Beacons: 1205,
		counter.WiredIn: 800, counter.WiredSent: 780, counter.WiredDroppedCoDel: 8, counter.RxAMSDUSubframes: 6} {
		s.Counters[id] = v
	}
	return s
}

func sampleStations() []Station {
	return []Station{{
		Addr: MAC{2, 0, 0, 0, 1, 0}, AID: 1, BSS: "wlan0", Associated: true, State: StateAssociated, WMM: true, ShortPreamble: true, ListenInt: 10,
		Capability: 0x0431, SupportedRates: Rates{0x8c, 0x12, 0x98, 0x24, 0xb0, 0x48, 0x60, 0x6c},
		Authorized: true, MFP: true, AKM: "WPA-PSK-SHA256", Cipher: "CCMP", KeyID: "guests", PTKState: "PTKINITDONE", GroupState: "IDLE", InactiveMs: 36, ConnectedMs: 61250, Signal: -42, SignalAvg: -44, TxBitrate: 866666,
		TxRate:             Bitrate{Mode: radio.ModeVHT, MCS: 9, NSS: 2, Bandwidth: radio.BW80, ShortGI: true},
		RxRate:             Bitrate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW20},
		ExpectedThroughput: 612000,
		RxBytes:            123456, RxPackets: 1234, TxBytes: 654321, TxPackets: 4321, TxRetries: 17, TxFailed: 2,
		TxNoStatus: 1, RxDuplicates: 3, RxDropMisc: 0, TxQueueDrops: 4, TxAirtime: 250000, RxAirtime: 41000, RxBitrate: 65000, PHYMode: "VHT", HEAnnounced: true, AirtimeWeight: 512,
		AirtimeDeficit: PerAC{512, 512, -1234, 512}, AQLPending: PerAC{0, 0, 1400, 0},
		AQLLimitLow: PerAC{5000, 5000, 500, 5000}, AQLLimitHigh: PerAC{12000, 12000, 1000, 12000},
		InFlight: PerAC{0, 0, 5, 0}, ACAirtime: PerAC{0, 0, 250000, 0}, QueueFramesTotal: 12,
		AMSDUs: 300, AMSDUSubframes: 1000, AMSDUMean: 1000.0 / 300, AMSDUBytes: 1514000,
		DTIMPeriod: 2, BeaconInterval: 100, BSSShortPreamble: true, ShortSlotTime: true,
	}, {
		Addr: MAC{2, 0, 0, 0, 1, 1}, AID: 2, State: StatePending, ListenInt: 5, InactiveMs: 4100, TxBitrate: 5500, AirtimeWeight: 256,
		DTIMPeriod: 1, BeaconInterval: 200, CTSProtection: true,
		TxRate:      Bitrate{Mode: radio.ModeLegacy, Legacy: 11, Bandwidth: radio.BW20},
		AQLLimitLow: PerAC{5000, 5000, 5000, 5000}, AQLLimitHigh: PerAC{12000, 12000, 12000, 12000},
	}}
}

func sampleAQL() *AQL {
	return &AQL{Low: PerAC{5000, 5000, 500, 5000}, High: PerAC{12000, 12000, 1000, 12000}, Threshold: 24000,
		Pending: PerAC{0, 0, 1400, 0}, PendingTotal: 1400, InFlight: PerAC{0, 0, 5, 0}, FrameCap: PerAC{64, 64, 64, 64}}
}

func sampleScheduler() *Scheduler {
	s := &Scheduler{Mode: "production", BacklogFrame: 12, BacklogBytes: 1200, Collisions: 2}
	for i := range s.AC {
		s.AC[i].AC = AC(i)
	}
	s.AC[2] = SchedulerAC{AC: 2, Round: 812, Open: true, Listed: 1, RoundsOpened: 812, RoundsClosed: 40,
		Selections: 1700, Skipped: 1, Airtime: 250000, DropsQueueFull: 4, CoDelDrops: 8, CoDelMarks: 2}
	return s
}

func sampleScan() *ScanStatus {
	return &ScanStatus{Mode: "continuous", Channels: 3, TripLimit: 92400, Sweeping: true, SweepVisited: 1,
		SweepChannels: 3, Trips: 14, ActiveVisits: 18, PassiveVisits: 6, Sweeps: 5, SweepAge: 412,
		LastSweep: 716800, LongestSweep: 921600, LongestTrip: 61000, Deferred: 2, Forced: 1, Retunes: 52,
		RetuneMax: 1200, Away: 850000, RxWhileAway: 17, ProbesSent: 36, BSSes: 2, TableUpdates: 140,
		TableAdded: 2}
}

func sampleBSSes() []BSS {
	return []BSS{{
		BSSID: MAC{2, 0xbb, 0, 0, 0, 1}, SSID: "neighbour", Freq: 2437, HeardFreq: 2437, Signal: -61, HasSignal: true,
		LastSeen: 120, FirstSeen: 5400, Capability: 0x0411, BeaconInterval: 100, TSF: 90061000001, Beacons: 12,
		Rates: Rates{0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24, 0x30, 0x48, 0x60, 0x6c, 0xff}, DSChannel: 6,
		HT: true, HTCapInfo: 0x012c, HTOper: true, HTPrimary: 6, RSN: true,
	}, {
		BSSID: MAC{2, 0xbb, 0, 0, 0, 2}, SSID: " lab\\5g\x00", Freq: 5180, HeardFreq: 5180, LastSeen: 3050,
		FirstSeen: 3050, Capability: 0x0001, BeaconInterval: 100, TSF: 3000, ProbeResps: 1, FromProbe: true,
		Rates: Rates{0x8c, 0x12, 0x98, 0x24}, HT: true, HTCapInfo: 0x09ef, HTOper: true, HTPrimary: 36,
		HTSecondary: 1, HTAnyWidth: true, VHT: true, VHTCapInfo: 0x0f8259b2, VHTOper: true, VHTWidth: 1,
		VHTSeg0: 42, VHTBasicMCS: 0xfffc,
	}}
}

func sampleSurveys() []Survey {
	return []Survey{
		{Freq: 2412, InUse: true, Noise: -95, HasNoise: true, Active: 61000000, Busy: 9100000, Rx: 4000000, Tx: 3000000},
		{Freq: 2437, Dwell: 610000, Visits: 12, Beacons: 48, BSSes: 1},
		{Freq: 5180, Dwell: 330000, Visits: 6, ProbeResps: 1, BSSes: 1},
	}
}

func sampleRates() *RateTable {
	return &RateTable{Addr: MAC{2, 0, 0, 0, 1, 0}, Selector: true, Best: "HT20 MCS7", BestKbps: 72200,
		Frames: 2000, Samples: 96, Rows: []RateStats{
			{Mode: "HT20", Guard: "SGI", Streams: 1, Name: "MCS7", Kbps: 72200, Best: true, Airtime: 246,
				MaxTP: 50.016260162601625, TP: 47.2, Prob: 0.9437, Measured: true, Retries: 7, LastSucc: 40,
				LastAtt: 41, Successes: 1800, Attempts: 1890, Samples: 3, FrameBytes: 1538},
			{Mode: "HT20", Guard: "SGI", Streams: 1, Name: "MCS6", Kbps: 65000, Second: true, Airtime: 268,
				MaxTP: 45.91044776119403, Retries: 7, FrameBytes: 1538},
			{Mode: "OFDM", Guard: "-", Streams: 1, Name: "6M", Kbps: 6000, Robust: true, Airtime: 2140,
				MaxTP: 5.749532710280374, TP: 5.7, Prob: 1, Measured: true, Retries: 7, LastSucc: 1, LastAtt: 1,
				Successes: 3, Attempts: 3, FrameBytes: 1538},
		}}
}

func sampleReplies() map[string]Reply {
	return map[string]Reply{
		"status":      {Status: sampleStatus()},
		"stations":    {Stations: sampleStations()},
		"aql":         {AQL: sampleAQL()},
		"scheduler":   {Scheduler: sampleScheduler()},
		"error":       Errorf(ENOENT, "station 02:00:00:00:09:00: not associated"),
		"scan":        {Scan: sampleScan()},
		"bsses":       {BSSes: sampleBSSes()},
		"surveys":     {Surveys: sampleSurveys()},
		"rates":       {Rates: sampleRates()},
		"rates-fixed": {Rates: &RateTable{Addr: MAC{2, 0, 0, 0, 1, 1}, Best: "OFDM 54M", BestKbps: 54000}},
		"noscan":      Errorf(EOPNOTSUPP, "scanning is off: start airqd with -scan"),
		"empty":       {},
		"airtime":     {Airtime: sampleAirtime()},
		"devs":        {Devs: sampleDevs()},
		"nodev":       Errorf(ENODEV, "dev lan: no such BSS"),
	}
}

func sampleDevs() []Dev {
	return []Dev{{
		Name: "wlan0", BSSID: MAC{2, 0, 0, 0, 2, 0}, SSID: "lab", Security: "WPA2/WPA3-Personal transition", KeyMgmt: "WPA-PSK SAE", PMF: "optional",
		Channel: 6, Freq: 2437, Width: "40 MHz", WMM: true, HT: true, PHYMode: "802.11n",
		Holder: "airq0", TAP: "airq-tap0", Stations: 2, Pending: 1, Authenticated: 1, ProbeResponses: 40, AuthResponses: 5,
		AssocResponses: 4, Associations: 3, Deauths: 1, RxBytes: 123456, RxPackets: 1234, TxBytes: 654321, TxPackets: 4321,
		TxRetries: 17, TxFailed: 2, WiredIn: 4400, WiredOut: 1200, AckFrames: 1300, AckRetries: 12,
	}, {
		Name: "guest", Index: 1, BSSID: MAC{2, 0, 0, 0, 2, 1}, SSID: "guest \"free\"", Hidden: true, Security: "open", PMF: "off", Channel: 6,
		Freq: 2437, Width: "20 MHz (no HT)", PHYMode: "802.11g", Holder: "guest-ack", Stations: 0, ProbeResponses: 40, AuthResponses: 3, ACLDenied: 2,
		AckFrames: 16, AckRetries: 12, AckUnanswered: 3,
	}}
}

func sampleAirtime() *Airtime {
	return &Airtime{Mode: 1, ModeName: "static", UpdateIntervalMs: 200,
		BSSes: []AirtimeBSS{
			{Name: "airq0", BSSID: MAC{2, 0, 0, 0, 2, 0}, Weight: 256, CapPercent: 100, TxAirtimeUs: 1100000},
			{Index: 1, Name: "guest", BSSID: MAC{2, 0, 0, 0, 2, 1}, Weight: 256, CapPercent: 30, CapCreditUs: -1250, TxAirtimeUs: 400000},
		},
		Stations: []AirtimeStation{
			{Addr: MAC{2, 0, 0, 0, 1, 0}, Weight: 768, StaWeight: 768, BacklogFrames: 12, BacklogBytes: 16800, TxAirtimeUs: 1100000},
			{Addr: MAC{2, 0, 0, 0, 1, 1}, BSS: 1, Weight: 256, TxAirtimeUs: 400000},
		}}
}
