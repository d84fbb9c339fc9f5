import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_home_page_at_phone_size(live_server, page, screenshot):
    page.goto(live_server.url + "/")
    assert page.title() == "Tablescore"
    heading = page.get_by_role("heading", level=1)
    assert "Keep score" in heading.inner_text()
    # readable without zooming: nothing wider than the phone
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    assert page.evaluate("typeof htmx") == "object"
    path = screenshot(page, "home")
    assert path.stat().st_size > 5_000
