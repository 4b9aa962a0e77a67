package ctl

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
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
	return &Status{SSID: "airq \"lab\"", BSSID: MAC{2, 0, 0, 0, 2, 0}, Channel: 6, Freq: 2437, BeaconInterval: 100,
		DTIMPeriod: 2, WMM: true, Scheduler: "production", TSF: 123456789, Stations: 2, Authenticated: 1,
		MaxStations: 2007, Backlog: 12, RxFrames: 1000, RxMalformed: 1, Echoes: 900, NoStatus: 3, Beacons: 1205,
		WiredIn: 800, WiredSent: 780, DropCoDel: 8, AirtimePending: 1400, InFlightFrames: 5, InFlightCap: 64}
}

func sampleStations() []Station {
	return []Station{{
		Addr: MAC{2, 0, 0, 0, 1, 0}, AID: 1, Associated: true, WMM: true, ShortPreamble: true, ListenInt: 10,
		InactiveMs: 36, ConnectedMs: 61250, Signal: -42, TxBitrate: 54000,
		RxBytes: 123456, RxPackets: 1234, TxBytes: 654321, TxPackets: 4321, TxRetries: 17, TxFailed: 2,
		TxNoStatus: 1, RxDuplicates: 3, RxDropMisc: 0, TxQueueDrops: 4, TxAirtime: 250000, AirtimeWeight: 512,
		AirtimeDeficit: PerAC{512, 512, -1234, 512}, AQLPending: PerAC{0, 0, 1400, 0},
		AQLLimitLow: PerAC{5000, 5000, 500, 5000}, AQLLimitHigh: PerAC{12000, 12000, 1000, 12000},
		InFlight: PerAC{0, 0, 5, 0}, ACAirtime: PerAC{0, 0, 250000, 0}, QueueFramesTotal: 12,
	}, {
		Addr: MAC{2, 0, 0, 0, 1, 1}, AID: 2, ListenInt: 5, InactiveMs: 4100, TxBitrate: 5500, AirtimeWeight: 256,
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

func sampleReplies() map[string]Reply {
	return map[string]Reply{
		"status":    {Status: sampleStatus()},
		"stations":  {Stations: sampleStations()},
		"aql":       {AQL: sampleAQL()},
		"scheduler": {Scheduler: sampleScheduler()},
		"error":     Errorf(ENOENT, "station 02:00:00:00:09:00: not associated"),
		"empty":     {},
	}
}
