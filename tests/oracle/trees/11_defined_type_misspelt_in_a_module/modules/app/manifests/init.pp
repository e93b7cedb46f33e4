class app {
  app::site { 'intranet': port => 8080 }
  app::sitee { 'www': port => 8081 }
}
