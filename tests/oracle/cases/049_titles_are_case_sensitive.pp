package { 'Foo': }
package { 'foo': }
