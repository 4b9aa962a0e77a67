package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// FuzzCoreRX feeds arbitrary bytes to the core's radio input, both raw and
// behind a valid RX header, in a BSS with an associated station: the core
// must not panic and must keep its books.
func FuzzCoreRX(f *testing.F) {
	bssid := ieee80211.MAC{0x02, 0, 0, 0, 0x01, 0}
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	f.Add(ieee80211.AppendProbeReq(nil, sta, "airq-sim", []byte{12, 24, 48}, 1), false)
	f.Add(append(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, bssid, sta, bssid, 1), 0, 0, 1, 0, 0, 0), false)
	f.Add(append(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAssocReq, bssid, sta, bssid, 2), 1, 0, 10, 0, 0, 8, 'a', 'i', 'r', 'q', '-', 's', 'i', 'm'), false)
	f.Add(ieee80211.AppendNullData(nil, bssid, sta, 3, true), false)
	f.Add(ieee80211.AppendPSPoll(nil, 1, bssid, sta), false)
	f.Add(append(radiotap.AppendEcho(nil, radio.TxStatus{Acked: true}), ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeBeacon, ieee80211.Broadcast, bssid, bssid, 0)...), true)
	f.Add([]byte{0, 0, 8, 0, 0, 0, 0, 0}, true)
	s, err := New(Config{Seed: 1})
	if err != nil {
		f.Fatal(err)
	}
	s.AddStation(StationConfig{})
	s.Run(50 * time.Millisecond)
	hdr := radiotap.AppendRx(nil, radio.RxInfo{HasTSFT: true, Freq: 5180, Signal: -40, HasSignal: true, Rate: radio.LegacyRate(6000)})
	f.Fuzz(func(t *testing.T, b []byte, raw bool) {
		if !raw {
			b = append(append([]byte(nil), hdr...), b...)
		}
		s.InjectRadio(b)
		s.Run(time.Millisecond)
		if !s.Core().Accounted() {
			t.Fatal("core unaccounted")
		}
	})
}
