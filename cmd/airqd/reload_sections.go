package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// A SIGHUP whose file adds, removes or reorders bss= sections restarts
// the radio with the new file, as hostapd 2.11 disables and enables the
// interface when its BSSes' number or names changed: every station of
// every BSS is disconnected and every BSS is built anew. The TAPs follow
// with the radio's start (the shell opens each BSS's); the sections'
// hostapd sockets follow here: an added section's opened before the
// restart, a removed one's closed after it. A new file that fails to
// start leaves the previous configuration running. The simulated radio
// restarts too: its simulation goes on from where it stopped, its
// stations joining again (simRadio).

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
// from the running ones. Call it with r.mu held, and only with r.radio
// and r.sockets: without them (-g) the sections are logged as needing a
// restart (logBSSReload).
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
	if err := r.radio.restart(context.WithoutCancel(ctx), next); err != nil {
		closeSockets(opened)
		err = fmt.Errorf("restarting the radio with bss= sections %q: %w", is, err)
		r.log.Error("reload: not applied; the previous configuration runs again", "err", err)
		return err
	}
	r.sockets.replace(socks)
	r.cur = next
	r.level.Set(next.logLevel)
	r.log.Info("reload: the radio restarted with the file's bss= sections", "bss", is)
	return nil
}

// follow opens the sockets next's sections need that are not open: it
// returns every BSS's socket for next and those it opened. On an error
// the ones it opened are closed again.
func (h *hostapdSockets) follow(next options, r *reloader) (socks, opened []bssSocket, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	socks = next.bssSockets()
	socks[0] = h.socks[0]
	for i := 1; i < len(socks); i++ {
		s := &socks[i]
		if j := slices.IndexFunc(h.socks[1:], func(o bssSocket) bool { return o.name == s.name && o.dir == s.dir }); j >= 0 {
			s.hs = h.socks[j+1].hs
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

// replace makes socks the open sockets, closing those it no longer holds.
func (h *hostapdSockets) replace(socks []bssSocket) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, o := range h.socks {
		if o.hs != nil && !slices.ContainsFunc(socks, func(s bssSocket) bool { return s.hs == o.hs }) {
			o.hs.Close()
		}
	}
	h.socks = socks
}

// socketPhy is the radio the sockets name: the phy, or "sim".
func socketPhy(o options) string {
	if o.Radio == "sim" {
		return "sim"
	}
	return o.Phy
}
