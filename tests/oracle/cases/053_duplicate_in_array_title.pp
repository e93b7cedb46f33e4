package { ['a', 'b']: }
package { 'b': }
