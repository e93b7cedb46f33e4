class app {
  notify { 'host': message => app::host_of('www') }
  notify { 'port': message => app::port_off('www') }
}
