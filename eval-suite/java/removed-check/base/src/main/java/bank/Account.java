package bank;

public final class Account {
    private long balance;

    public long balance() {
        return balance;
    }

    public void withdraw(long cents) {
        balance -= cents;
    }

    public void deposit(long cents) {
        balance += cents;
    }
}
