from django import template

from agency.words import change_words

register = template.Library()
register.filter("change_words", change_words)
