package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
)

// Replies to others' frames share a budget of airtime in classes
// (bss.ReplyBudget); these place a reply in its class and count the ones
// the budget held back.

// replyShare is each BSS's part of Config.ReplyAirtime: the radio's
// share, split evenly, so that a flood every BSS answers (wildcard probe
// requests) takes no more of the air than one BSS's would, and a flood at
// one BSS cannot spend another's.
func replyShare(cfg Config) float64 { return cfg.ReplyAirtime / float64(1+len(cfg.BSSes)) }

// replyClassOf is the class of an authentication or association response
// to addr; s is its station entry, if any.
func (a *AP) replyClassOf(now time.Duration, b *bss.BSS, addr ieee80211.MAC, s *station) bss.ReplyClass {
	if (s != nil && (s.Known || s.HadData)) || b.Senders.Known(now, a.cfg.SenderMemory, addr) {
		return bss.ReplyKnown
	}
	return bss.ReplyNew
}

func (a *AP) countThrottled(c bss.ReplyClass) {
	a.cnt[counter.RepliesThrottled]++
	switch c {
	case bss.ReplyKnown:
		a.cnt[counter.ThrottledKnown]++
	case bss.ReplyNew:
		a.cnt[counter.ThrottledNew]++
	default:
		a.cnt[counter.ThrottledStranger]++
	}
}
