package shell

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// ProbeLoop's figure is the time from each tick's due time to the loop's
// answer: a loop that takes every input 3 ms late, then one 45 ms late
// (past two ticks of 20 ms, which are skipped, not measured twice), then
// on time again.
func TestProbeLoopMeasuresFromTheDueTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const period = 20 * time.Millisecond
		s := newControlServer(nil, "", nil)
		ctx, cancel := context.WithCancel(t.Context())
		var got []time.Duration
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.ProbeLoop(ctx, period, func(d time.Duration) { got = append(got, d) })
		}()
		due := time.Now().Add(period)
		for _, late := range []time.Duration{3 * time.Millisecond, 3 * time.Millisecond, 45 * time.Millisecond, 0, 0} {
			time.Sleep(time.Until(due))
			synctest.Wait() // the probe waits for the loop
			time.Sleep(late)
			call := <-s.Calls()
			call.Serve(nil, 0, nil)
			if due = due.Add(period); due.Before(time.Now()) {
				due = time.Now().Add(period) // 80 and 100 ms passed while the loop was busy
			}
		}
		synctest.Wait()
		cancel()
		<-done
		want := []time.Duration{3 * time.Millisecond, 3 * time.Millisecond, 45 * time.Millisecond, 0, 0}
		if len(got) != len(want) {
			t.Fatalf("observed %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("probe %d: %v late, want %v (all: %v)", i, got[i], want[i], got)
			}
		}
	})
}
