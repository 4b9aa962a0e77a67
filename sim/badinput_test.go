package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// rxHeader is the radiotap header mac80211 puts on a received frame.
func rxHeader() []byte {
	return radiotap.AppendRx(nil, radio.RxInfo{HasTSFT: true, Freq: 5180, Signal: -40, HasSignal: true,
		Rate: radio.LegacyRate(24000)})
}

// TestBadInput feeds the core frames a real air could carry and a broken
// radio could deliver; each must be counted and dropped, leave the
// associated station's traffic alone and keep the books straight.
func TestBadInput(t *testing.T) {
	s, h := newBSS(t, 5, 1, MediumConfig{}, StationConfig{})
	st := s.Stations()[0]
	bssid := s.Core().Config().BSSID
	stranger := ieee80211.MAC{0x02, 0xee, 0, 0, 0, 1}
	data := func(flags uint16, a1, a2, a3 ieee80211.MAC) []byte {
		b := ieee80211.AppendDataHeader(nil, ieee80211.DataHeader{Flags: flags, Addr1: a1, Addr2: a2, Addr3: a3, Seq: 1})
		b = ieee80211.AppendLLCSNAP(b, 0x0800)
		return append(b, make([]byte, 40)...)
	}
	assocBody := ieee80211.AppendAssocReq(nil, 1, 10)
	cases := []struct {
		name  string
		frame []byte // 802.11 part; the radiotap header is added
		raw   []byte // whole input, used instead when set
	}{
		{name: "empty", raw: []byte{}},
		{name: "radiotap only", raw: rxHeader()},
		{name: "radiotap bad version", raw: append([]byte{1, 0, 8, 0, 0, 0, 0, 0}, make([]byte, 30)...)},
		{name: "radiotap length past end", raw: []byte{0, 0, 200, 0, 0, 0, 0, 0}},
		{name: "truncated header", frame: []byte{0x08, 0x01, 0, 0, 1, 2, 3}},
		{name: "truncated auth", frame: ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, bssid, stranger, bssid, 1)},
		{name: "truncated assoc", frame: ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAssocReq, bssid, st.Addr(), bssid, 1)},
		{name: "assoc broken IEs", frame: append(append(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAssocReq, bssid, st.Addr(), bssid, 2), assocBody...), 0, 40, 'x')},
		{name: "probe broken IEs", frame: append(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeProbeReq, ieee80211.Broadcast, stranger, ieee80211.Broadcast, 1), 0, 9, 'a')},
		{name: "oversized data", frame: append(data(ieee80211.FCToDS, bssid, st.Addr(), h.Addr()), make([]byte, 4000)...)},
		{name: "data from unknown station", frame: data(ieee80211.FCToDS, bssid, stranger, h.Addr())},
		{name: "4-address data", frame: append(data(ieee80211.FCToDS|ieee80211.FCFromDS, bssid, st.Addr(), h.Addr()), 0, 0, 0, 0, 0, 0)},
		{name: "data FromDS", frame: data(ieee80211.FCFromDS, bssid, st.Addr(), h.Addr())},
		{name: "data to another BSS", frame: data(ieee80211.FCToDS, stranger, st.Addr(), h.Addr())},
		{name: "reserved type", frame: []byte{0x0c, 0, 0, 0, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 0, 0}},
		{name: "control from stranger", frame: ieee80211.AppendPSPoll(nil, 1, bssid, stranger)},
		{name: "no LLC", frame: ieee80211.AppendDataHeader(nil, ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: bssid, Addr2: st.Addr(), Addr3: h.Addr(), Seq: 9, QoS: true})[:26:26]},
		{name: "protected data", frame: data(ieee80211.FCToDS|ieee80211.FCProtected, bssid, st.Addr(), h.Addr())},
		{name: "fragment", frame: data(ieee80211.FCToDS|ieee80211.FCMoreFrag, bssid, st.Addr(), h.Addr())},
		{name: "echo of a frame never sent", raw: append(radiotap.AppendEcho(nil, radio.TxStatus{Acked: true}), ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, stranger, bssid, bssid, 99)...)},
	}
	ping := s.Ping(h, st, 10*time.Millisecond, 56)
	s.Run(50 * time.Millisecond)
	for _, c := range cases {
		b := c.raw
		if b == nil {
			b = append(rxHeader(), c.frame...)
		}
		before := s.Core().Counters()
		s.InjectRadio(b)
		after := s.Core().Counters()
		if after[counter.RxFrames] != before[counter.RxFrames]+1 || after[counter.RxToWired] != before[counter.RxToWired] || after[counter.DownlinkIn] != before[counter.DownlinkIn] {
			t.Errorf("%s: counters before %+v after %+v", c.name, before, after)
		}
		s.Run(5 * time.Millisecond)
		if !s.Core().Accounted() {
			t.Errorf("%s: core unaccounted", c.name)
		}
		if !st.Associated() {
			t.Fatalf("%s: the station lost its association", c.name)
		}
	}
	c := s.Core().Counters()
	if c[counter.RxMalformed] == 0 || c[counter.RxFromUnknown] == 0 || c[counter.RxNotForUs] == 0 || c[counter.RxFragments] == 0 || c[counter.EchoUnmatched] == 0 {
		t.Errorf("bad input not counted: %+v", c)
	}
	ping.Stop()
	s.Run(100 * time.Millisecond)
	if ps := ping.Stats(); ps.Received != ps.Sent {
		t.Errorf("ping during bad input: %d of %d", ps.Received, ps.Sent)
	}
}
