// Echo client and server on gorilla/websocket (Debian's golang-github-gorilla-websocket-dev), for
// wsgate's interop matrix. Built by interop/install.sh gorilla (GOPATH mode against /usr/share/gocode).
//
//	gorilla-echo client URL   dial URL once, echo every text/binary message until the close
//	gorilla-echo server PORT  listen on 127.0.0.1:PORT, echo every message of every connection
//
// Both use the library's defaults (no compression, no read limit), as a user would start it.
package main

import (
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/gorilla/websocket"
)

// echo copies every message back with its type until the connection ends; the library answers
// pings and the close frame itself.
func echo(c *websocket.Conn) {
	defer c.Close()
	for {
		kind, data, err := c.ReadMessage()
		if err != nil {
			return
		}
		if err := c.WriteMessage(kind, data); err != nil {
			return
		}
	}
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gorilla-echo client URL | server PORT")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "client":
		c, _, err := websocket.DefaultDialer.Dial(os.Args[2], nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gorilla-echo:", err)
			os.Exit(1)
		}
		echo(c)
	case "server":
		upgrader := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
		http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			c, err := upgrader.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			go echo(c)
		})
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
		go func() {
			<-stop
			os.Exit(0)
		}()
		if err := http.ListenAndServe("127.0.0.1:"+os.Args[2], nil); err != nil {
			fmt.Fprintln(os.Stderr, "gorilla-echo:", err)
			os.Exit(1)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: gorilla-echo client URL | server PORT")
		os.Exit(2)
	}
}
