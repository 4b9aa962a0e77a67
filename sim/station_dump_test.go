package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/radio"
)

// The lines iw shows come from real figures: a VHT station carrying a
// download reports the rate the selector chose, with iw's suffixes, the
// rate its uplink came at, the signal and its average, and the selector's
// expected throughput.
func TestStationDumpFigures(t *testing.T) {
	s, err := New(Config{Seed: 3, AP: ap.Config{Channel: 36, WMM: true, PHY: bss.PHY{VHT: true, Width: 80, SGI20: true, SGI40: true, SGI80: true}}})
	if err != nil {
		t.Fatal(err)
	}
	h := s.AddHost(HostConfig{})
	st := s.AddStation(StationConfig{VHT: true, Signal: -47})
	for s.Now() < 2*time.Second && !st.Associated() {
		s.Run(10 * time.Millisecond)
	}
	s.Bulk(h, st, BulkConfig{})
	s.Run(2 * time.Second)
	r := s.Control(ctl.Request{Op: ctl.OpStationDump})
	if len(r.Stations) != 1 {
		t.Fatalf("%d stations", len(r.Stations))
	}
	got := r.Stations[0]
	if got.TxRate.Mode != radio.ModeVHT || got.TxRate.Bandwidth != radio.BW80 || !got.TxRate.ShortGI || got.TxRate.NSS != 1 {
		t.Errorf("tx rate %+v (%s)", got.TxRate, got.TxRate.AppendIW(nil))
	}
	if got.RxRate.Mode == radio.ModeNone {
		t.Error("no rx rate after an upload of TCP acknowledgements")
	}
	if got.Signal != -47 || got.SignalAvg != -47 || !got.Authorized {
		t.Errorf("signal %d avg %d authorized %v", got.Signal, got.SignalAvg, got.Authorized)
	}
	// The expected throughput is the best rate's, below its PHY rate.
	if got.ExpectedThroughput == 0 || int(got.ExpectedThroughput) >= got.TxBitrate {
		t.Errorf("expected throughput %d kbit/s at %d kbit/s", got.ExpectedThroughput, got.TxBitrate)
	}
	text := string(ctl.AppendStation(nil, "airq0", &got, ctl.Clock{Wall: time.Unix(1e9, 0), Boot: time.Hour}))
	for _, want := range []string{"\ttx bitrate:\t" + string(got.TxRate.AppendIW(nil)) + "\n", " VHT-MCS ", " 80MHz short GI VHT-NSS 1\n",
		"\tsignal avg:\t-47 dBm\n", "Mbps\n", "\tauthorized:\tyes\n", "\tassociated at:\t"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}
