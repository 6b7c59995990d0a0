/// The most common passwords (from published breach frequency lists), lower-cased: refused by
/// `PasswordPolicy` whatever their length. A few hundred: enough to stop the guesses an attacker
/// tries first; the length rule and the sign-in limits do the rest. Only those of 10 or more
/// characters can matter once the length rule applies; the shorter ones also catch a short word
/// padded with digits or punctuation (`monkey2024!`), as the policy compares the word inside.
public enum CommonPasswords {
    public static let list: Set<String> = [
        "123456", "password", "12345678", "qwerty", "123456789", "12345", "1234", "111111", "1234567", "dragon", "123123",
        "baseball", "abc123", "football", "monkey", "letmein", "696969", "shadow", "master", "666666", "qwertyuiop", "123321",
        "mustang", "1234567890", "michael", "654321", "superman", "1qaz2wsx", "7777777", "121212", "000000", "qazwsx", "123qwe",
        "killer", "trustno1", "jordan", "jennifer", "zxcvbnm", "asdfgh", "hunter", "buster", "soccer", "harley", "batman",
        "andrew", "tigger", "sunshine", "iloveyou", "2000", "charlie", "robert", "thomas", "hockey", "ranger", "daniel",
        "starwars", "klaster", "112233", "george", "computer", "michelle", "jessica", "pepper", "1111", "zxcvbn", "555555",
        "11111111", "131313", "freedom", "777777", "pass", "maggie", "159753", "aaaaaa", "ginger", "princess", "joshua",
        "cheese", "amanda", "summer", "love", "ashley", "nicole", "chelsea", "biteme", "matthew", "access", "yankees",
        "987654321", "dallas", "austin", "thunder", "taylor", "matrix", "mobilemail", "mom", "monitor", "monitoring", "montana",
        "moon", "moscow", "password1", "password12", "password123", "password1234", "password12345", "passw0rd", "p@ssw0rd",
        "p@ssword", "pa55word", "passwort", "motdepasse", "contraseña", "senha", "wachtwoord", "qwerty123", "qwerty1234",
        "qwerty12345", "qwerty123456", "qwertyuiop123", "qwertyui", "qwertyu", "qwert12345", "1q2w3e4r", "1q2w3e4r5t",
        "1q2w3e4r5t6y", "1qaz2wsx3edc", "zaq12wsx", "zaq1zaq1", "zaq1xsw2", "1qazxsw2", "qazwsxedc", "qazwsxedcrfv", "asdfghjkl",
        "asdfghjkl1", "zxcvbnm123", "zxcvbnm1", "asdf1234", "asdfasdf", "qweasdzxc", "qweqweqwe", "1234qwer", "qwer1234",
        "abcd1234", "abc12345", "abcdef", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghij", "0123456789", "01234567890",
        "9876543210", "0987654321", "1234567891", "12345678910", "123456789a", "a123456789", "123456789q", "1234554321",
        "1122334455", "1111111111", "0000000000", "2222222222", "5555555555", "123123123", "123123123123", "321321321",
        "147258369", "159357", "159753456", "741852963", "963852741", "123654789", "147852369", "1234512345", "12341234",
        "11223344", "123abc123", "aa123456", "123456a", "123456aa", "iloveyou1", "iloveyou2", "iloveyou123", "iloveu",
        "iloveyou!", "loveyou", "lovely", "loveme", "ilovegod", "ilovemymom", "ilovemusic", "welcome", "welcome1", "welcome123",
        "welcome2024", "welcome2025", "welcome2026", "changeme", "changeme123", "letmein1", "letmein123", "secret", "secret123",
        "admin", "admin123", "admin1234", "administrator", "root", "toor", "default", "guest", "guest123", "user", "user123",
        "test", "test123", "testing", "testtest", "temp", "temp123", "login", "login123", "master123", "access123", "pass123",
        "pass1234", "passpass", "football1", "baseball1", "basketball", "soccer1", "hockey1", "golfer", "tennis", "volleyball",
        "cricket", "dragon123", "monkey123", "shadow123", "superman1", "batman123", "spiderman", "pokemon", "naruto",
        "starwars1", "harrypotter", "hellokitty", "ironman", "sunshine1", "princess1", "charlie1", "jordan23", "michael1",
        "jennifer1", "jessica1", "ashley1", "nicole1", "daniel1", "anthony", "andrea", "joseph", "william", "jonathan",
        "samantha", "elizabeth", "alexander", "christopher", "benjamin", "whatever", "whatever1", "nothing", "nopassword",
        "mypassword", "yourpassword", "thepassword", "newpassword", "oldpassword", "password!", "password01", "password2024",
        "password2025", "password2026", "computer1", "internet", "google", "yahoo", "facebook", "microsoft", "apple", "samsung",
        "iphone", "android", "linkedin", "twitter", "instagram", "netflix", "summer2024", "winter2024", "spring2024",
        "autumn2024", "summer2025", "winter2025", "summer2026", "winter2026", "january", "february", "september", "october",
        "november", "december", "monday", "friday", "freedom1", "liberty", "america", "canada", "london", "paris", "berlin",
        "chicago", "newyork", "california", "qwerty1", "qwerty12", "azerty", "azertyuiop", "qwertz", "qwertzuiop", "1qwerty",
        "zxcv1234", "asdfghjk", "1a2b3c4d", "1a2b3c4d5e", "a1b2c3d4", "a1b2c3d4e5", "abc123456", "abcabc", "abcabc123",
        "letmeinnow", "opensesame", "superstar", "rockstar", "hello", "hello123", "hello1234", "helloworld", "goodbye",
        "blahblah", "cookie", "chocolate", "banana", "orange", "purple", "yellow", "silver", "diamond", "flower", "butterfly",
        "angel", "angels", "blessed", "jesus", "jesus1", "christ", "heaven", "dragonball", "mustang1", "corvette", "ferrari",
        "porsche", "mercedes", "yamaha", "harley1", "sexy", "sex", "secret1", "love123", "baby", "babygirl", "baby123",
        "babyboy", "boyfriend", "girlfriend", "lovers", "master1", "killer1", "hunter1", "hunter2", "tigger1", "buster1",
        "pepper1", "ginger1", "maggie1", "cheese1", "summer1", "thunder1", "matrix1", "ranger1"
    ]
}
