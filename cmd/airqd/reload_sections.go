package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/airq/airq/shell"
)

// A SIGHUP whose file adds, removes or reorders bss= sections restarts
// the radio with the new file, as hostapd 2.11 disables and enables the
// interface when its BSSes' number or names changed: every station of
// every BSS is disconnected and every BSS is built anew. The TAPs follow
// with the radio's start (the shell opens each BSS's); the sections'
// hostapd sockets follow here: an added section's opened before the
// restart, a removed one's closed after it, with -g in the global
// socket's slot, whose INTERFACES lists them as hostapd's lists the BSSes
// of the interface it made anew. A new file that fails to start leaves
// the previous configuration running. The simulated radio restarts too:
// its simulation goes on from where it stopped, its stations joining
// again (simRadio).

// sectionSockets hold the BSSes' hostapd sockets that follow the file's
// sections: hostapdSockets, or with -g the global socket's slot.
type sectionSockets interface {
	// follow opens the sockets next's sections need that are not open: it
	// returns every section's socket for next (the first BSS's aside, its
	// holder's own) and those it opened. On an error the ones it opened
	// are closed again.
	follow(next options, r *reloader) (socks, opened []bssSocket, err error)
	// replace makes socks the open sockets; it returns those it no
	// longer holds, for the caller to close.
	replace(socks []bssSocket) (gone []*shell.HostapdServer)
}

// hostapdSockets are the BSSes' hostapd sockets beside the radio when no
// global socket holds them (with -g its slot does).
type hostapdSockets struct {
	mu    sync.Mutex
	socks []bssSocket // the first BSS's, then each section's
}

func (h *hostapdSockets) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	closeSockets(h.socks)
}

// sectionNames are o's bss= sections' names, in order.
func sectionNames(o *options) []string {
	var n []string
	for _, b := range o.BSSes {
		n = append(n, b.Name)
	}
	return n
}

// restartForSections restarts the radio with next, whose sections differ
// from the running ones. Call it with r's locks held (lock), and only
// with r.radio and r.sockets; the sockets it no longer needs go to
// r.gone, closed once the locks are released (unlock, closeGone).
func (r *reloader) restartForSections(ctx context.Context, next options) error {
	was, is := strings.Join(sectionNames(&r.cur), " "), strings.Join(sectionNames(&next), " ")
	r.log.Warn("reload: bss= sections added, removed or reordered: restarting the radio with the new file; every station of every BSS is disconnected",
		"running", was, "file", is)
	socks, opened, err := r.sockets.follow(next, r)
	if err != nil {
		r.log.Error("reload: not applied; the running BSSes keep their settings and stations", "err", err)
		return err
	}
	next.keepOpened(&r.cur)
	if s := r.slot.Load(); s != nil && s.off() {
		next.Core.StartDisabled = true // the first BSS removed through the global socket, or not enabled yet, stays off
	}
	if err := r.radio.restart(context.WithoutCancel(ctx), next); err != nil {
		for _, s := range opened {
			r.gone = append(r.gone, s.hs)
		}
		err = fmt.Errorf("restarting the radio with bss= sections %q: %w", is, err)
		r.log.Error("reload: not applied; the previous configuration runs again", "err", err)
		return err
	}
	r.gone = append(r.gone, r.sockets.replace(socks)...)
	r.cur = next
	r.level.Set(next.logLevel)
	r.log.Info("reload: the radio restarted with the file's bss= sections", "bss", is)
	return nil
}

// closeGone closes the sockets unlock returned. Call it without r.mu: a
// command on one of them may be waiting for it, and Close waits for the
// command; a socket answering the command that removed it (RELOAD)
// closes once it has answered.
func closeGone(gone []*shell.HostapdServer) {
	for _, hs := range gone {
		hs.CloseAfterReply()
	}
}

func (h *hostapdSockets) follow(next options, r *reloader) (socks, opened []bssSocket, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return followSockets(h.socks, next, r)
}

// followSockets is follow over cur, the running BSSes' sockets, the
// first's first: next's first BSS keeps cur's first socket, a section
// the socket of cur's section of the same name and directory, else one
// opened here.
func followSockets(cur []bssSocket, next options, r *reloader) (socks, opened []bssSocket, err error) {
	socks = next.bssSockets()
	socks[0] = cur[0]
	for i := 1; i < len(socks); i++ {
		s := &socks[i]
		if j := slices.IndexFunc(cur[1:], func(o bssSocket) bool { return o.name == s.name && o.dir == s.dir }); j >= 0 {
			s.hs = cur[j+1].hs
			continue
		}
		if s.dir == "" {
			continue
		}
		if s.hs, err = openBSSSocket(next, i, *s, socketPhy(next), r.srv, r, r.log); err != nil {
			closeSockets(opened)
			return nil, nil, err
		}
		opened = append(opened, *s)
	}
	return socks, opened, nil
}

func (h *hostapdSockets) replace(socks []bssSocket) []*shell.HostapdServer {
	h.mu.Lock()
	defer h.mu.Unlock()
	gone := goneSockets(h.socks, socks)
	h.socks = socks
	return gone
}

// goneSockets are the open sockets of cur that socks does not hold.
func goneSockets(cur, socks []bssSocket) []*shell.HostapdServer {
	var gone []*shell.HostapdServer
	for _, o := range cur {
		if o.hs != nil && !slices.ContainsFunc(socks, func(s bssSocket) bool { return s.hs == o.hs }) {
			gone = append(gone, o.hs)
		}
	}
	return gone
}

// socketPhy is the radio the sockets name: the phy, or "sim".
func socketPhy(o options) string {
	if o.Radio == "sim" {
		return "sim"
	}
	return o.Phy
}
