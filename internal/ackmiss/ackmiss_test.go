package ackmiss

import "testing"

var (
	staA = [6]byte{2, 0, 0, 0, 1, 0}
	staB = [6]byte{2, 0, 0, 0, 2, 0}
)

type frame struct {
	ta     [6]byte
	seqCtl uint16
	retry  bool
}

func TestWatch(t *testing.T) {
	for _, tc := range []struct {
		name      string
		threshold int
		frames    []frame
		want      Counts
		sign      []int // indexes of the frames that report a missing ACK
	}{
		{name: "answered frames: new sequence numbers, no retries",
			threshold: 4,
			frames:    []frame{{staA, 0x10, false}, {staA, 0x20, false}, {staA, 0x30, false}},
			want:      Counts{Frames: 3}},
		{name: "an ordinary lost ACK: one retry",
			threshold: 4,
			frames:    []frame{{staA, 0x10, false}, {staA, 0x10, true}, {staA, 0x20, false}},
			want:      Counts{Frames: 3, Retries: 1}},
		{name: "unanswered: the first transmission and three retries",
			threshold: 4,
			frames:    []frame{{staA, 0x10, false}, {staA, 0x10, true}, {staA, 0x10, true}, {staA, 0x10, true}, {staA, 0x10, true}},
			want:      Counts{Frames: 5, Retries: 4, Unanswered: 1},
			sign:      []int{3}},
		{name: "the first transmission not heard: retries alone reach the threshold",
			threshold: 3,
			frames:    []frame{{staA, 0x10, true}, {staA, 0x10, true}, {staA, 0x10, true}},
			want:      Counts{Frames: 3, Retries: 3, Unanswered: 1},
			sign:      []int{2}},
		{name: "repeats without Retry are not retransmissions",
			threshold: 2,
			frames:    []frame{{staA, 0x10, false}, {staA, 0x10, false}, {staA, 0x10, false}},
			want:      Counts{Frames: 3}},
		{name: "fragments of one sequence are separate frames",
			threshold: 2,
			frames:    []frame{{staA, 0x10, false}, {staA, 0x11, true}, {staA, 0x12, true}},
			want:      Counts{Frames: 3, Retries: 2}},
		{name: "two stations interleaved, each unanswered",
			threshold: 2,
			frames:    []frame{{staA, 0x10, false}, {staB, 0x10, false}, {staA, 0x10, true}, {staB, 0x10, true}},
			want:      Counts{Frames: 4, Retries: 2, Unanswered: 2},
			sign:      []int{2, 3}},
		{name: "a threshold below 2 is 2",
			threshold: 0,
			frames:    []frame{{staA, 0x10, false}, {staA, 0x10, true}},
			want:      Counts{Frames: 2, Retries: 1, Unanswered: 1},
			sign:      []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := New(tc.threshold, 7)
			var sign []int
			for i, f := range tc.frames {
				if w.Frame(f.ta, f.seqCtl, f.retry) {
					sign = append(sign, i)
				}
			}
			if got := w.Counts(); got != tc.want {
				t.Errorf("counts = %+v, want %+v", got, tc.want)
			}
			if len(sign) != len(tc.sign) {
				t.Fatalf("signs at frames %v, want %v", sign, tc.sign)
			}
			for i := range sign {
				if sign[i] != tc.sign[i] {
					t.Fatalf("signs at frames %v, want %v", sign, tc.sign)
				}
			}
		})
	}
}

// TestUnansweredOncePerFrame: a station past the threshold (a long retry
// chain) is one unanswered frame, not one per further retry.
func TestUnansweredOncePerFrame(t *testing.T) {
	w := New(Threshold, 1)
	w.Frame(staA, 0x40, false)
	for range 20 {
		w.Frame(staA, 0x40, true)
	}
	if got := w.Counts().Unanswered; got != 1 {
		t.Errorf("unanswered = %d, want 1", got)
	}
}

// TestFloodIsBounded: forged retries from many addresses only move the
// counters; the table keeps its size.
func TestFloodIsBounded(t *testing.T) {
	w := New(Threshold, 3)
	for i := range 100000 {
		w.Frame([6]byte{2, 0, byte(i >> 16), byte(i >> 8), byte(i), 0}, uint16(i), true)
	}
	if c := w.Counts(); c.Frames != 100000 || c.Retries != 100000 || c.Unanswered != 0 {
		t.Errorf("counts = %+v", c)
	}
}

func TestFrameZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race; make norace runs this test without it")
	}
	w := New(Threshold, 9)
	var seq uint16
	if n := testing.AllocsPerRun(1000, func() {
		seq += 0x10
		w.Frame(staA, seq, false)
		w.Frame(staA, seq, true)
		_ = w.Counts()
	}); n != 0 {
		t.Errorf("Frame allocates %.1f times per call", n)
	}
}

func BenchmarkFrame(b *testing.B) {
	w := New(Threshold, 9)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w.Frame(staA, uint16(i<<4), i&1 == 1)
	}
}
