package shell

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/airq/airq/ctl/hostapd"
)

// closingBackend closes its own socket from RELOAD, as airqd's does when
// the file reloaded no longer has the socket's BSS.
type closingBackend struct{ hs atomic.Pointer[HostapdServer] }

func (b *closingBackend) Config() hostapd.Config          { return hostapd.Config{} }
func (b *closingBackend) Set(string, string) error        { return nil }
func (b *closingBackend) ReloadPSK(context.Context) error { return nil }

func (b *closingBackend) Reload(ctx context.Context) error {
	b.hs.Load().CloseAfterReply()
	return ctx.Err() // the socket's context lives until the reply
}

// A RELOAD that closes its own socket (CloseAfterReply) is answered OK,
// then the socket goes, its file removed; closed when it answers nothing,
// it goes at once.
func TestHostapdCloseAfterReply(t *testing.T) {
	be := &closingBackend{}
	r := newHostapdRig(t, 1, be)
	be.hs.Store(r.hs)
	c := r.client("cli")
	if got := c.ask("RELOAD"); got != "OK\n" {
		t.Fatalf("RELOAD: %q", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, err := os.Stat(r.hs.Addr()); !os.IsNotExist(err); _, err = os.Stat(r.hs.Addr()) {
		if time.Now().After(deadline) {
			t.Fatalf("the socket after the RELOAD that closed it: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}

	idle := newHostapdRig(t, 1, nil)
	idle.hs.CloseAfterReply()
	if _, err := os.Stat(idle.hs.Addr()); !os.IsNotExist(err) {
		t.Errorf("an idle socket after CloseAfterReply: %v", err)
	}
}
