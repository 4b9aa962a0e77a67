package pcap

import (
	"bytes"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/radio/radiotest"
)

// A tapped device records what it reads (with mac80211's RX header) and
// what the kernel took from a write (with airq's TX header), stamped by
// the clock it was given, and passes both through unchanged.
func TestTap(t *testing.T) {
	w, path := create(t, 1<<20)
	at := time.Unix(1700000000, 250000000)
	bssid, sta := ieee80211.MAC{2, 0, 0, 0, 1, 0}, ieee80211.MAC{2, 0, 0, 0, 16, 1}
	rx := append(radiotap.AppendRx(nil, radio.RxInfo{Freq: 2437, Signal: -40, HasSignal: true}),
		ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, bssid, sta, bssid, 1), 0, 1, 0)...)
	tx := append(radiotap.AppendTx(nil, radio.TxParams{Rate: radio.LegacyRate(6000)}),
		ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeDeauth, sta, bssid, bssid, 2)...)
	inner := radiotest.New()
	inner.Inject(rx)
	dev := Tap(inner, w, func() time.Time { return at })
	bufs, sizes := [][]byte{make([]byte, radio.MaxFrame)}, make([]int, 1)
	if n, err := dev.ReadBatch(bufs, sizes); n != 1 || err != nil || !bytes.Equal(bufs[0][:sizes[0]], rx) {
		t.Fatalf("read %d, %v", n, err)
	}
	if n, err := dev.WriteBatch([][]byte{tx}); n != 1 || err != nil {
		t.Fatalf("write %d, %v", n, err)
	}
	if got := inner.Written(); len(got) != 1 || !bytes.Equal(got[0], tx) {
		t.Errorf("the device got %x", got)
	}
	if err := dev.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, path)
	if len(got) != 2 {
		t.Fatalf("%d frames, want 2", len(got))
	}
	for i, want := range [][]byte{rx, tx} {
		if !bytes.Equal(got[i].data, want) || !got[i].at.Equal(at) {
			t.Errorf("frame %d: %x at %v, want %x at %v", i, got[i].data, got[i].at, want, at)
		}
	}
}
