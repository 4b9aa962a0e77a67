package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/radio/radiotest"
)

// Received and sent frames land in the file with their radiotap headers,
// in a form pcapgo (and so Wireshark) reads: link type 127, times, lengths
// and bytes as written.
func TestPcapRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "airq.pcap")
	p, err := openPcap(path, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1700000000, 123456000)
	p.now = func() time.Time { return at }
	bssid, sta := ieee80211.MAC{2, 0, 0, 0, 1, 0}, ieee80211.MAC{2, 0, 0, 0, 16, 1}
	rx := append(radiotap.AppendRx(nil, radio.RxInfo{Freq: 2437, Signal: -40, HasSignal: true}),
		ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, bssid, sta, bssid, 1), 0, 1, 0)...)
	tx := append(radiotap.AppendRx(nil, radio.RxInfo{Freq: 2437}),
		ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeDeauth, sta, bssid, bssid, 2)...)
	inner := radiotest.New()
	inner.Inject(rx)
	o := options{pcapOut: p}
	dev := o.capture(inner)
	bufs, sizes := [][]byte{make([]byte, radio.MaxFrame)}, make([]int, 1)
	if n, err := dev.ReadBatch(bufs, sizes); n != 1 || err != nil {
		t.Fatalf("read %d, %v", n, err)
	}
	if n, err := dev.WriteBatch([][]byte{tx}); n != 1 || err != nil {
		t.Fatalf("write %d, %v", n, err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if r.LinkType() != layers.LinkTypeIEEE80211Radio {
		t.Errorf("link type %v, want radiotap (127)", r.LinkType())
	}
	for i, want := range [][]byte{rx, tx} {
		data, ci, err := r.ReadPacketData()
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !bytes.Equal(data, want) || ci.Length != len(want) || !ci.Timestamp.Equal(at) {
			t.Errorf("frame %d: %x at %v (len %d), want %x at %v", i, data, ci.Timestamp, ci.Length, want, at)
		}
	}
	if _, _, err := r.ReadPacketData(); err == nil {
		t.Error("a third frame")
	}
}

// The file stops growing at its bound; what does not fit is counted.
func TestPcapBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "airq.pcap")
	const limit = pcapFileHeader + 10*(pcapRecordHeader+100)
	p, err := openPcap(path, limit)
	if err != nil {
		t.Fatal(err)
	}
	frame := make([]byte, 100)
	for range 25 {
		p.write([][]byte{frame})
	}
	p.Close()
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != limit {
		t.Fatalf("size %v, %v; want %d", fi.Size(), err, limit)
	}
	if p.written.Load() != 10 || p.dropped.Load() != 15 {
		t.Errorf("written %d, dropped %d; want 10 and 15", p.written.Load(), p.dropped.Load())
	}
}
