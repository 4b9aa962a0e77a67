package bss

import (
	"testing"
	"time"
)

// TestReplyBudgetBorrowing: an idle class's share goes to the pool, which
// a busy class draws on; the classes together never spend more than the
// rate, retries included.
func TestReplyBudgetBorrowing(t *testing.T) {
	b := NewReplyBudget(0.1) // 100,000 µs per second
	now := time.Duration(0)
	spent := 0.0
	for range 10000 {
		now += time.Millisecond
		for {
			ok, pooled := b.Take(now, ReplyNew, 800, 0)
			if !ok {
				break
			}
			spent += 800
			b.Charge(ReplyNew, pooled, 1600) // two retries each
			spent += 1600
		}
	}
	// Ten seconds at 100,000 µs/s, plus what the buckets held at the start.
	limit := 10*1e5 + replyPoolBurst + replyBurst[ReplyKnown] + replyBurst[ReplyNew] + replyBurst[ReplyStranger]
	if spent > limit || spent < 0.9*10*1e5 {
		t.Errorf("one busy class spent %.0f µs in 10 s, want about 1,000,000 and at most %.0f", spent, limit)
	}
	// The known class kept its own bucket.
	if ok, _ := b.Take(now, ReplyKnown, 800, 0); !ok {
		t.Error("the known class was drained by the new one")
	}
}
