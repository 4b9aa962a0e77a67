package pcap

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// create opens a capture file in a fresh directory.
func create(t *testing.T, limit int64) (*Writer, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "airq.pcap")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWriter(f, limit)
	if err != nil {
		t.Fatal(err)
	}
	return w, path
}

type record struct {
	data []byte
	at   time.Time
	full int
}

// readAll reads a capture back with pcapgo, checking it is radiotap.
func readAll(t *testing.T, path string) []record {
	t.Helper()
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
	var out []record
	for {
		data, ci, err := r.ReadPacketData()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("frame %d: %v", len(out), err)
		}
		out = append(out, record{data, ci.Timestamp, ci.Length})
	}
}

// Frames land with their times, lengths and bytes as written, in a form
// pcapgo (and so Wireshark) reads; a frame over the snap length is cut
// and keeps its original length.
func TestWriterRoundTrip(t *testing.T) {
	w, path := create(t, 1<<20)
	t0 := time.Unix(1700000000, 123456000)
	t1 := t0.Add(1500 * time.Microsecond)
	a, b, long := []byte{0, 0, 8, 0, 0, 0, 0, 0, 0xb0}, []byte{0, 0, 8, 0, 0, 0, 0, 0, 0xc0, 1}, make([]byte, SnapLen+10)
	w.Write(t0, a, b)
	w.Write(t1, long)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	w.Write(t1, a) // after Close: dropped, not written
	got := readAll(t, path)
	want := []record{{a, t0, len(a)}, {b, t0, len(b)}, {long[:SnapLen], t1, len(long)}}
	if len(got) != len(want) {
		t.Fatalf("%d frames, want %d", len(got), len(want))
	}
	for i := range want {
		g := got[i]
		if !bytes.Equal(g.data, want[i].data) || !g.at.Equal(want[i].at) || g.full != want[i].full {
			t.Errorf("frame %d: %d bytes at %v (len %d), want %d at %v (len %d)", i, len(g.data), g.at, g.full,
				len(want[i].data), want[i].at, want[i].full)
		}
	}
	if w.Written() != 3 || w.Dropped() != 1 {
		t.Errorf("written %d, dropped %d; want 3 and 1", w.Written(), w.Dropped())
	}
}

// The file stops growing at its bound; what does not fit is counted.
func TestWriterBounded(t *testing.T) {
	const limit = FileHeader + 10*(RecordHeader+100)
	w, path := create(t, limit)
	frame := make([]byte, 100)
	for range 25 {
		w.Write(time.Now(), frame)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != limit {
		t.Fatalf("size %v, %v; want %d", fi.Size(), err, limit)
	}
	if w.Written() != 10 || w.Dropped() != 15 {
		t.Errorf("written %d, dropped %d; want 10 and 15", w.Written(), w.Dropped())
	}
}

// failing accepts n bytes, then fails every write.
type failing struct{ n int }

func (f *failing) Write(b []byte) (int, error) {
	if len(b) > f.n {
		k := f.n
		f.n = 0
		return k, errors.New("disk full")
	}
	f.n -= len(b)
	return len(b), nil
}

func (f *failing) Close() error { return nil }

// The first write error stops the capture: later frames are dropped and
// Close reports the error.
func TestWriterError(t *testing.T) {
	w, err := NewWriter(&failing{n: 100 << 10}, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	frame := make([]byte, 1000)
	for range 200 {
		w.Write(time.Now(), frame)
	}
	if err := w.Close(); err == nil {
		t.Error("Close after a failed write: nil error")
	}
	if w.Dropped() == 0 || w.Written()+w.Dropped() != 200 {
		t.Errorf("written %d, dropped %d of 200", w.Written(), w.Dropped())
	}
}

func TestNewWriterBoundTooSmall(t *testing.T) {
	if _, err := NewWriter(&failing{}, FileHeader-1); err == nil {
		t.Error("a bound below the file header accepted")
	}
}

// Recording a frame allocates nothing: the simulated radio calls Write for
// every frame.
func TestWriteAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	w, _ := create(t, 1<<30)
	defer w.Close()
	frame, at := make([]byte, 1500), time.Unix(1700000000, 0)
	if n := testing.AllocsPerRun(1000, func() { w.Write(at, frame) }); n != 0 {
		t.Errorf("Write: %v allocations, want 0", n)
	}
}

func BenchmarkWrite(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "airq.pcap"))
	if err != nil {
		b.Fatal(err)
	}
	w, err := NewWriter(f, 1<<40)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	frame, at := make([]byte, 1500), time.Unix(1700000000, 0)
	b.ReportAllocs()
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		w.Write(at, frame)
	}
}
